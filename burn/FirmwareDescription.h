// FirmwareDescription: the fwburn manifest — target device, image format, BOOT2 and sections.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "burn/IniFile.h"
#include "core/Result.h"
#include "devices/DeviceInfo.h"

namespace openflint::burn {

// One section to put in the image, its bytes already read from a file or generated.
struct DescribedSection {
  std::string name;        // from the "[section NAME]" header
  std::uint32_t type = 0;  // FS1/FS2: GPH type; FS3/FS4: ITOC type
  std::uint32_t param = 0; // FS1/FS2 GPH param
  std::vector<std::uint8_t> data;
  int line = 0;            // line of the section header in the description
};

struct FirmwareDescription {
  std::string file;                  // path as given (for messages)
  std::string name;                  // free text, optional
  const DeviceInfo* device = nullptr;
  ImageFormat format = ImageFormat::Fs3;
  std::vector<std::uint8_t> boot2;   // empty = the writer's filler
  bool component_update = false;     // FS3/FS4: IMAGE_INFO mcc_en (the firmware takes updates via MCC)
  std::vector<DescribedSection> sections;
};

// Parses a description (syntax in docs/fwburn.md). Relative "file" paths are resolved against
// the description's folder. Errors name file, line and key: InvalidArgument for bad content
// (unknown device, format mismatch, unknown key or section, bad type, wrong value), Io when
// a referenced blob cannot be read.
[[nodiscard]] Result<FirmwareDescription> parse_firmware_description(const IniFile& ini,
                                                                     const std::filesystem::path& base_dir);
[[nodiscard]] Result<FirmwareDescription> load_firmware_description(const std::filesystem::path& path);

// Deterministic filler bytes (xorshift32 stream seeded by `seed`) for sample sections.
[[nodiscard]] std::vector<std::uint8_t> filler_bytes(std::size_t size, std::uint32_t seed);

}  // namespace openflint::burn
