// ImageGenerator: maps description + board config onto the FS1/FS2/FS3/FS4 writer specs.
#include "burn/ImageGenerator.h"

#include "core/HexString.h"
#include "devices/DeviceCatalog.h"
#include "devices/FlashChip.h"
#include "image/FirmwareImage.h"
#include "image/Fs1Writer.h"
#include "image/Fs2Writer.h"
#include "image/Fs3Writer.h"
#include "image/Fs4Writer.h"
#include "image/FirmwareTraceStrings.h"
#include "image/SectionType.h"

namespace openflint::burn {
namespace {

std::vector<gph::GphSection> gph_sections(const FirmwareDescription& d) {
  std::vector<gph::GphSection> out;
  for (const auto& s : d.sections) out.push_back({s.type, s.data, s.param});
  return out;
}

// The board and firmware fields every format's spec has under the same names.
template <class Spec>
void fill_common(Spec& spec, const FirmwareDescription& d, const BoardConfig& c) {
  spec.fw_version = c.fw_version;
  spec.release_date = c.release_date;
  spec.psid = c.psid;
  spec.vsd = c.vsd;
  spec.supported_hw_ids = c.supported_hw_ids;
  spec.base_guid = c.base_guid;
  spec.ini = c.ini_text;
  spec.boot2_code = d.boot2;
}

// FS1 and FS2 (GPH section chains) also share these.
template <class Spec>
void fill_gph(Spec& spec, const FirmwareDescription& d, const BoardConfig& c) {
  fill_common(spec, d, c);
  spec.product_version = c.product_version;
  spec.device_id = d.device->pci_device_id;
  spec.sections = gph_sections(d);
}

Result<std::vector<std::uint8_t>> generate_fs1(const FirmwareDescription& d, const BoardConfig& c) {
  Fs1ImageSpec spec;
  fill_gph(spec, d, c);
  if (c.log2_sector_size) spec.log2_sector_size = *c.log2_sector_size;
  return write_fs1_image(spec);
}

Result<std::vector<std::uint8_t>> generate_fs2(const FirmwareDescription& d, const BoardConfig& c) {
  Fs2ImageSpec spec;
  fill_gph(spec, d, c);
  spec.base_mac = c.base_mac;
  if (c.log2_chunk_size) spec.log2_chunk_size = *c.log2_chunk_size;
  // Device facts from the catalog: a switch's port GUIDs are 0; SwitchX carries a config area.
  spec.zero_port_guids = d.device->kind == DeviceKind::Switch;
  if (d.device->fs2_config_area.present()) spec.config_area = d.device->fs2_config_area;
  return write_fs2_image(spec);
}

// FS3 and FS4 (ITOC images) share the whole spec but FS3's chunk size.
Result<void> fill_toc_spec(Fs3ImageSpec& spec, const FirmwareDescription& d, const BoardConfig& c) {
  fill_common(spec, d, c);
  spec.description = c.description;
  spec.part_number = c.part_number;
  spec.pci_device_id = d.device->pci_device_id;
  spec.component_update = d.component_update;
  spec.base_mac = c.base_mac;
  spec.guid_count = c.guid_count;
  spec.mac_count = c.mac_count;
  for (const auto& s : d.sections) spec.sections.push_back({static_cast<std::uint8_t>(s.type), s.data});
  // Firmware of a family with a tracer carries the formats of its trace messages (our own
  // section type): the simulated firmware serves them through MTRC_STDB (sim/FirmwareTracer).
  if (d.device->tracer != nullptr)
    spec.sections.push_back({section_type::kTraceStrings, firmware_trace_strings_section()});
  if (c.flash_size) {
    spec.flash_size = *c.flash_size;
  } else if (!d.device->default_flash_chip.empty()) {
    OF_ASSIGN(const FlashChip* chip, find_flash_chip_by_name(d.device->default_flash_chip));
    spec.flash_size = chip->size;
  }
  return {};
}

Result<std::vector<std::uint8_t>> generate_fs3(const FirmwareDescription& d, const BoardConfig& c) {
  Fs3ImageSpec spec;
  OF_TRY(fill_toc_spec(spec, d, c));
  if (c.log2_chunk_size) spec.log2_chunk_size = *c.log2_chunk_size;
  return write_fs3_image(spec);
}

// FS4: the same sections under an ITOC, the device data under a DTOC at the flash's end; unsigned,
// without a hashes table or boot record (image/Fs4Writer.h).
Result<std::vector<std::uint8_t>> generate_fs4(const FirmwareDescription& d, const BoardConfig& c) {
  Fs4ImageSpec spec;
  OF_TRY(fill_toc_spec(spec, d, c));
  return write_fs4_image(spec);
}

// What we write must be what we read back: the image parses and verifies bootable (e.g. an
// FS3 description with more sections than an ITOC holds is refused here, not burned).
Result<void> check_generated(Bytes image, const std::string& what) {
  const auto refuse = [&](const std::string& why) {
    return make_error(ErrorCode::InvalidImage, what + ": the generated image fails its own check: " + why);
  };
  auto query = query_image(image);
  if (!query) return refuse(query.error().message());
  auto report = verify_image(image);
  if (!report) return refuse(report.error().message());
  if (!report->bootable()) {
    for (const auto& s : report->sections)
      if (s.status == SectionStatus::WrongCrc || s.status == SectionStatus::Invalid)
        return refuse(s.name + " at " + hex_string(s.start) + " is " + to_string(s.status));
    return refuse(report->problems.empty() ? "not bootable" : report->problems.front());
  }
  return {};
}

}  // namespace

Result<std::vector<std::uint8_t>> generate_image(const FirmwareDescription& d, const BoardConfig& c) {
  Result<std::vector<std::uint8_t>> image = make_error(ErrorCode::Internal, "no format");
  switch (d.format) {
    case ImageFormat::Fs1: image = generate_fs1(d, c); break;
    case ImageFormat::Fs2: image = generate_fs2(d, c); break;
    case ImageFormat::Fs3: image = generate_fs3(d, c); break;
    case ImageFormat::Fs4: image = generate_fs4(d, c); break;
  }
  const std::string what = "generating " + std::string(to_string(d.format)) + " image";
  if (!image) return make_error(std::move(image).error().with_context(what));
  OF_TRY(check_generated(*image, what));
  return image;
}

Result<std::vector<std::uint8_t>> generate_image_from_files(const std::filesystem::path& description,
                                                            const std::filesystem::path& ini) {
  OF_ASSIGN(const FirmwareDescription d, load_firmware_description(description));
  OF_ASSIGN(const BoardConfig c, load_board_config(ini, d));
  return generate_image(d, c);
}

}  // namespace openflint::burn
