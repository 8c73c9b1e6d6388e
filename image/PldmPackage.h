// PldmPackage: DMTF DSP0267 PLDM firmware update packages (.fwpkg, 1.0-1.3) — list device records, stream one component out.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ByteReader.h"
#include "core/ByteSource.h"
#include "core/Result.h"

namespace openflint {

// One record descriptor {type, data}. A vendor-defined one (0xFFFF) is split into its title and value.
struct PldmDescriptor {
  std::uint16_t type = 0;
  std::vector<std::uint8_t> data;
  std::string title;                // vendor-defined: the title string ("PSID", "APSKU", ...)
  std::vector<std::uint8_t> value;  // vendor-defined: what follows the title
};

// A firmware device ID record (or, from 1.1 on, a downstream device ID record).
struct PldmDeviceRecord {
  bool downstream = false;
  std::uint32_t update_flags = 0;
  std::string version;  // ComponentImageSetVersionString (downstream: the self-contained activation minimum)
  std::vector<PldmDescriptor> descriptors;
  std::vector<std::uint16_t> components;  // indexes into components() the ApplicableComponents bitmap names
  std::uint16_t package_data_size = 0;
  std::uint32_t reference_manifest_size = 0;  // 1.3
  std::string psid;  // NVIDIA's vendor-defined "PSID" descriptor, empty when the record has none
};

// A component image information entry: where its bytes are in the file.
struct PldmComponent {
  std::uint16_t classification = 0;
  std::uint16_t identifier = 0;
  std::uint32_t comparison_stamp = 0;
  std::uint16_t options = 0;
  std::uint16_t activation_method = 0;
  std::uint64_t offset = 0;  // from byte 0 of the package
  std::uint32_t size = 0;
  std::string version;
  std::uint32_t opaque_data_size = 0;  // 1.2+
};

class PldmPackage {
 public:
  static constexpr std::size_t kChunkSize = std::size_t{1} << 20;

  // Checks the header identifier (the 1.0, 1.1, 1.2 or 1.3 UUID with its format revision), every
  // field and count inside the declared header size and the header inside the file, each record's
  // measured length against its RecordLength, the standard descriptors' sizes, bitmap bits only for
  // existing components, the header CRC32 and (1.3) the payload CRC32, and every component inside
  // the file, after the header, and disjoint from the others. Failures are InvalidImage (a wrong
  // checksum: Mismatch). Only the header is held in memory; components stay in the file.
  [[nodiscard]] static Result<PldmPackage> open(const std::string& path);
  [[nodiscard]] static Result<PldmPackage> from_bytes(std::vector<std::uint8_t> package);
  [[nodiscard]] static Result<PldmPackage> from_source(std::shared_ptr<const ByteSource> source);
  // True when `head` starts with one of the DSP0267 package header identifiers.
  [[nodiscard]] static bool has_header_identifier(Bytes head);

  [[nodiscard]] std::uint8_t format_revision() const { return revision_; }
  [[nodiscard]] const char* spec_version() const { return spec_; }  // "1.0" .. "1.3"
  [[nodiscard]] std::uint16_t header_size() const { return header_size_; }
  [[nodiscard]] std::uint16_t component_bitmap_bits() const { return bitmap_bits_; }
  [[nodiscard]] const std::string& version() const { return version_; }
  // PackageReleaseDateTime as "YYYY-MM-DD hh:mm:ss" (UTC offset not applied); empty when unset (year 0).
  [[nodiscard]] const std::string& release_date() const { return release_date_; }
  [[nodiscard]] std::uint32_t header_crc() const { return header_crc_; }
  [[nodiscard]] const std::vector<PldmDeviceRecord>& records() const { return records_; }  // firmware devices, then downstream
  [[nodiscard]] const std::vector<PldmComponent>& components() const { return components_; }

  // The firmware device record whose PSID descriptor is `psid` (NotFound when none).
  [[nodiscard]] Result<const PldmDeviceRecord*> find_record(std::string_view psid) const;
  // The record's firmware component: its only one, else the one with identifier 1. NotFound when
  // none; InvalidImage when it is larger than `max_size`.
  [[nodiscard]] Result<const PldmComponent*> firmware(const PldmDeviceRecord& record, std::uint64_t max_size) const;

  using Sink = std::function<Result<void>(Bytes chunk)>;
  // Streams the component's bytes to `sink` in chunks of at most kChunkSize, read from the file.
  [[nodiscard]] Result<void> extract(const PldmComponent& component, const Sink& sink) const;
  // extract() into a file through core/OutputFile (atomic for a regular file).
  [[nodiscard]] Result<void> extract_to_file(const PldmComponent& component, const std::string& path) const;

 private:
  std::shared_ptr<const ByteSource> source_;
  std::uint8_t revision_ = 0;
  const char* spec_ = "";
  std::uint16_t header_size_ = 0;
  std::uint16_t bitmap_bits_ = 0;
  std::string version_;
  std::string release_date_;
  std::uint32_t header_crc_ = 0;
  std::vector<PldmDeviceRecord> records_;
  std::vector<PldmComponent> components_;

  [[nodiscard]] Result<void> parse();
  [[nodiscard]] Result<void> check_components() const;
  [[nodiscard]] Result<void> check_payload_crc(std::uint32_t expected) const;
};

}  // namespace openflint
