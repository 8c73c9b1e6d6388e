// Mfa2Commands: `archive list|extract` on an MFA2 package given with -i, and `archive create --format mfa2`.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "core/HexString.h"
#include "core/MappedFile.h"
#include "core/OutputFile.h"
#include "devices/FlashChip.h"
#include "flint/Commands.h"
#include "image/FirmwareImage.h"
#include "image/Mfa2Package.h"
#include "image/Mfa2Writer.h"

namespace openflint::flint {
namespace {

nlohmann::json mfa2_json(const Mfa2Package& package) {
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& device : package.devices()) {
    nlohmann::json components = nlohmann::json::array();
    for (const std::uint16_t index : device.components) {
      const Mfa2Component& c = package.components().at(index);
      components.push_back({{"index", index},
                            {"identifier", c.identifier},
                            {"size", c.size},
                            {"cb_offset", c.cb_offset}});
    }
    devices.push_back({{"psid", device.psid}, {"components", components}});
  }
  return {{"format", "mfa2"},
          {"devices", devices},
          {"components", package.components().size()},
          {"cb_compression", package.cb_compressed() ? "xz" : "none"},
          {"cb_unpacked_size", package.cb_unpacked_size()},
          {"sha256", !package.has_sha256() ? "absent" : (package.sha256_mismatch().empty() ? "verified" : "mismatch")},
          {"sha256_mismatch", package.sha256_mismatch().empty() ? nlohmann::json() : nlohmann::json(package.sha256_mismatch())}};
}

void print_mfa2(const Mfa2Package& package) {
  if (!package.sha256_mismatch().empty())
    std::fprintf(stderr, "-W- %s (reported, not refused: docs/packages.md)\n", package.sha256_mismatch().c_str());
  std::printf("%-20s %-10s %-12s %s\n", "PSID", "Component", "Identifier", "Size");
  for (const auto& device : package.devices())
    for (const std::uint16_t index : device.components) {
      const Mfa2Component& c = package.components().at(index);
      std::printf("%-20s %-10u %-12u %u\n", device.psid.c_str(), unsigned{index}, unsigned{c.identifier}, c.size);
    }
}

// The images named on the command line: files, and every regular file of a directory (sorted).
Result<std::vector<std::string>> image_paths(const std::vector<std::string>& inputs) {
  std::vector<std::string> out;
  for (const auto& input : inputs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(input, ec)) {
      out.push_back(input);
      continue;
    }
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(input, ec))
      if (entry.is_regular_file()) files.push_back(entry.path().string());
    if (ec) return make_error(ErrorCode::Io, input + ": " + ec.message());
    std::sort(files.begin(), files.end());
    if (files.empty()) return make_error(ErrorCode::InvalidArgument, input + ": no files in the directory");
    out.insert(out.end(), files.begin(), files.end());
  }
  return out;
}

Result<Mfa2Input> package_input(const std::string& path) {
  OF_ASSIGN(const MappedFile file, MappedFile::open(path, largest_flash_size(), "image"));
  OF_ASSIGN_CTX(const ImageQuery query, query_image(file.bytes()), path);
  if (query.format != ImageFormat::Fs3 && query.format != ImageFormat::Fs4)
    return make_error(ErrorCode::NotSupported, path + ": an " + std::string(to_string(query.format)) +
                                                   " image; MFA2 packages carry FS3/FS4 images only");
  if (query.psid.empty()) return make_error(ErrorCode::InvalidImage, path + ": the image has no PSID");
  const Bytes bytes = file.bytes();
  return Mfa2Input{.psid = query.psid, .image = std::vector<std::uint8_t>(bytes.begin(), bytes.end())};
}

}  // namespace

int run_mfa2_list(const Options& options) {
  auto package = Mfa2Package::open(options.image);
  if (!package) return report_error(options, package.error());
  if (options.json) {
    nlohmann::json doc = mfa2_json(*package);
    doc["ok"] = true;
    cli::print_json(doc);
  } else {
    print_mfa2(*package);
  }
  return cli::kOk;
}

int run_mfa2_extract(const Options& options, const std::string& out_path) {
  auto package = Mfa2Package::open(options.image);
  if (!package) return report_error(options, package.error());
  auto device = package->find_device(options.psid);
  if (!device) return report_error(options, device.error().with_context(options.image));
  // Checked before the output is created, so a refused component leaves no file behind.
  auto component = package->firmware(**device, largest_flash_size());
  if (!component) return report_error(options, component.error().with_context(options.image));
  auto done = package->extract_to_file(**component, out_path);
  if (!done) return report_error(options, done.error().with_context("extracting " + options.psid));
  if (options.json) {
    cli::print_json(nlohmann::json{{"ok", true}, {"psid", options.psid}, {"output", out_path},
                                   {"size", (*component)->size}});
  } else {
    std::cout << "Extracted " << options.psid << " to " << out_path << '\n';
  }
  return cli::kOk;
}

int run_archive_create(const Options& options, const std::vector<std::string>& inputs, const std::string& out_path) {
  auto paths = image_paths(inputs);
  if (!paths) return report_error(options, paths.error());
  std::vector<Mfa2Input> images;
  for (const auto& path : *paths) {
    auto input = package_input(path);
    if (!input) return report_error(options, input.error());
    images.push_back(std::move(*input));
  }
  auto package = build_mfa2(images);
  if (!package) return report_error(options, package.error());
  auto written = write_output_file(out_path, *package, "MFA2 package");
  if (!written) return report_error(options, written.error());
  if (options.json) {
    nlohmann::json psids = nlohmann::json::array();
    for (const auto& image : images) psids.push_back(image.psid);
    cli::print_json(nlohmann::json{{"ok", true}, {"output", out_path}, {"format", "mfa2"}, {"psids", psids},
                                   {"size", package->size()}});
  } else {
    std::cout << "Wrote " << out_path << ": " << images.size() << " device(s), " << package->size() << " bytes\n";
  }
  return cli::kOk;
}

}  // namespace openflint::flint
