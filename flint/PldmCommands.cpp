// PldmCommands: `archive list|extract` on a PLDM package given with -i, and `archive create --format pldm`.
#include <cstdio>
#include <ctime>
#include <iostream>

#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "core/HexString.h"
#include "core/OutputFile.h"
#include "devices/FlashChip.h"
#include "flint/Commands.h"
#include "flint/PackageImages.h"
#include "image/PldmFormat.h"
#include "image/PldmPackage.h"
#include "image/PldmWriter.h"

namespace openflint::flint {
namespace {

// A descriptor for people and scripts: its type's name and its value.
nlohmann::json pldm_descriptor_json(const PldmDescriptor& d) {
  const auto le = [&d]() {
    std::uint64_t v = 0;
    for (std::size_t i = d.data.size(); i-- > 0;) v = (v << 8) | d.data[i];
    return v;
  };
  switch (d.type) {
    case pldm::kDescPciVendorId: return {{"type", "pci_vendor_id"}, {"value", hex_string(le())}};
    case pldm::kDescPciDeviceId: return {{"type", "pci_device_id"}, {"value", hex_string(le())}};
    case pldm::kDescPciSubsystemVendorId: return {{"type", "pci_subsystem_vendor_id"}, {"value", hex_string(le())}};
    case pldm::kDescPciSubsystemId: return {{"type", "pci_subsystem_id"}, {"value", hex_string(le())}};
    case pldm::kDescIanaEnterpriseId: return {{"type", "iana_enterprise_id"}, {"value", le()}};
    case pldm::kDescVendorDefined: {
      std::string text;
      for (const std::uint8_t b : d.value)
        if (b != 0) text.push_back(b >= 0x20 && b < 0x7f ? static_cast<char>(b) : '.');
      return {{"type", "vendor_defined"}, {"title", d.title}, {"value", text}};
    }
    default: {
      std::string hex;
      for (const std::uint8_t b : d.data) {
        char two[3];
        std::snprintf(two, sizeof two, "%02x", b);
        hex += two;
      }
      return {{"type", hex_string(d.type)}, {"value", hex}};
    }
  }
}

nlohmann::json pldm_json(const PldmPackage& package) {
  nlohmann::json records = nlohmann::json::array();
  for (const auto& r : package.records()) {
    nlohmann::json descriptors = nlohmann::json::array();
    for (const auto& d : r.descriptors) descriptors.push_back(pldm_descriptor_json(d));
    records.push_back({{"psid", r.psid},
                       {"downstream", r.downstream},
                       {"version", r.version},
                       {"update_flags", r.update_flags},
                       {"descriptors", descriptors},
                       {"components", r.components},
                       {"package_data_size", r.package_data_size}});
  }
  nlohmann::json components = nlohmann::json::array();
  for (std::size_t i = 0; i < package.components().size(); ++i) {
    const PldmComponent& c = package.components()[i];
    components.push_back({{"index", i},
                          {"identifier", c.identifier},
                          {"classification", c.classification},
                          {"version", c.version},
                          {"offset", c.offset},
                          {"size", c.size},
                          {"comparison_stamp", c.comparison_stamp},
                          {"options", c.options},
                          {"activation_method", c.activation_method}});
  }
  return {{"format", "pldm"},
          {"spec_version", package.spec_version()},
          {"format_revision", package.format_revision()},
          {"header_size", package.header_size()},
          {"header_crc", hex_string(package.header_crc())},
          {"version", package.version()},
          {"release_date", package.release_date()},
          {"records", records},
          {"components", components}};
}

void print_pldm(const PldmPackage& package) {
  std::printf("PLDM package (DSP0267 %s), version %s%s%s\n", package.spec_version(), package.version().c_str(),
              package.release_date().empty() ? "" : ", released ", package.release_date().c_str());
  std::printf("%-20s %-10s %-12s %-12s %s\n", "PSID", "Component", "Identifier", "Size", "Version");
  for (const auto& r : package.records())
    for (const std::uint16_t index : r.components) {
      const PldmComponent& c = package.components().at(index);
      const std::string psid = r.psid.empty() ? (r.downstream ? "(downstream)" : "(no PSID)") : r.psid;
      std::printf("%-20s %-10u %-12s %-12u %s\n", psid.c_str(), unsigned{index}, hex_string(c.identifier).c_str(), c.size,
                  c.version.c_str());
    }
}

}  // namespace

int run_pldm_list(const Options& options) {
  auto package = PldmPackage::open(options.image);
  if (!package) return report_error(options, package.error());
  if (options.json) {
    nlohmann::json doc = pldm_json(*package);
    doc["ok"] = true;
    cli::print_json(doc);
  } else {
    print_pldm(*package);
  }
  return cli::kOk;
}

int run_pldm_extract(const Options& options, const std::string& out_path) {
  auto package = PldmPackage::open(options.image);
  if (!package) return report_error(options, package.error());
  auto record = package->find_record(options.psid);
  if (!record) return report_error(options, record.error().with_context(options.image));
  // Checked before the output is created, so a refused component leaves no file behind.
  auto component = package->firmware(**record, largest_flash_size());
  if (!component) return report_error(options, component.error().with_context(options.image));
  auto done = package->extract_to_file(**component, out_path);
  if (!done) return report_error(options, done.error().with_context("extracting " + options.psid));
  if (options.json) {
    cli::print_json(nlohmann::json{{"ok", true}, {"psid", options.psid}, {"output", out_path}, {"size", (*component)->size}});
  } else {
    std::cout << "Extracted " << options.psid << " to " << out_path << '\n';
  }
  return cli::kOk;
}

int run_pldm_create(const Options& options, const std::vector<std::string>& inputs, const std::string& out_path) {
  if (inputs.empty() || !options.image.empty())
    return report_error(options, Error(ErrorCode::InvalidArgument,
                                       "archive create --format pldm takes --bins IMG|DIR... (repacking -i PACKAGE "
                                       "writes MFA2 only)"));
  auto paths = package_image_paths(inputs);
  if (!paths) return report_error(options, paths.error());
  std::vector<PldmInput> images;
  for (const auto& path : *paths) {
    auto image = read_package_image(path);
    if (!image) return report_error(options, image.error());
    images.push_back(PldmInput{.psid = image->psid, .image = std::move(image->bytes), .version = image->fw_version});
  }
  auto package = build_pldm(images, {}, static_cast<std::int64_t>(std::time(nullptr)));
  if (!package) return report_error(options, package.error());
  auto written = write_output_file(out_path, *package, "PLDM package");
  if (!written) return report_error(options, written.error());
  if (options.json) {
    nlohmann::json psids = nlohmann::json::array();
    for (const auto& image : images) psids.push_back(image.psid);
    cli::print_json(nlohmann::json{{"ok", true}, {"output", out_path}, {"format", "pldm"}, {"psids", psids},
                                   {"size", package->size()}});
  } else {
    std::cout << "Wrote " << out_path << ": " << images.size() << " device record(s), " << package->size() << " bytes\n";
  }
  return cli::kOk;
}

}  // namespace openflint::flint
