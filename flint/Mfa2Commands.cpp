// Mfa2Commands: `archive list|extract` on an MFA2 package given with -i, and `archive create --format mfa2` (from images, or repacking -i PACKAGE).
#include <unistd.h>

#include <algorithm>
#include <functional>
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
#include "flint/PackageImages.h"
#include "image/FirmwareImage.h"
#include "image/Mfa2Package.h"
#include "image/Mfa2Repack.h"
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

// An image for the package: its PSID (from the image) and size; the file is mapped again when written.
Result<Mfa2Entry> package_entry(const std::string& path) {
  OF_ASSIGN(const MappedFile file, MappedFile::open(path, largest_flash_size(), "image"));
  OF_ASSIGN(const ImageQuery query, package_image_query(path, file.bytes()));
  return Mfa2Entry{.psid = query.psid, .size = file.bytes().size()};
}

// --bins: the images one at a time into the package (each mapped while it is written).
Result<Mfa2RepackResult> create_from_images(const std::vector<std::string>& inputs, const std::string& out_path) {
  OF_ASSIGN(const std::vector<std::string> paths, package_image_paths(inputs));
  std::vector<Mfa2Entry> entries;
  for (const auto& path : paths) {
    OF_ASSIGN(Mfa2Entry entry, package_entry(path));
    entries.push_back(std::move(entry));
  }
  OF_ASSIGN(OutputFile file, OutputFile::create(out_path, "MFA2 package"));
  OF_ASSIGN(Mfa2StreamWriter writer, Mfa2StreamWriter::start(file, entries));
  for (std::size_t i = 0; i < paths.size(); ++i) {
    OF_ASSIGN(const MappedFile image, MappedFile::open(paths[i], largest_flash_size(), "image"));
    if (image.bytes().size() != entries[i].size) return make_error(ErrorCode::Io, paths[i] + " changed while being read");
    OF_TRY(writer.write(image.bytes()));
  }
  Mfa2RepackResult result;
  result.cb_size = writer.cb_written();
  OF_ASSIGN(result.size, writer.finish());
  OF_TRY(file.commit());
  for (const auto& entry : entries) result.psids.push_back(entry.psid);
  return result;
}

// A one-line progress bar on stderr, only when stderr is a terminal.
std::function<void(std::uint64_t, std::uint64_t)> repack_progress(const Options& options) {
  if (options.json || options.silent || ::isatty(STDERR_FILENO) == 0) return {};
  return [last = -1](std::uint64_t done, std::uint64_t total) mutable {
    const int pct = total == 0 ? 100 : static_cast<int>(done * 100 / total);
    if (pct == last) return;
    last = pct;
    std::fprintf(stderr, "\rRepacking: %3d%%", pct);
    if (pct >= 100) std::fputc('\n', stderr);
  };
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
  // -i names a package to repack (its boards, or those --psid names); else --bins names images.
  if (options.image.empty() == inputs.empty())
    return report_error(options, Error(ErrorCode::InvalidArgument,
                                       "archive create takes either --bins IMG|DIR... or -i PACKAGE (.mfa/.mfa2) to repack"));
  // --psid before the subcommand (flint's own option) picks a board as well as after it.
  std::vector<std::string> psids = options.archive_psids;
  if (!options.psid.empty()) psids.push_back(options.psid);
  if (!inputs.empty() && !psids.empty())
    return report_error(options, Error(ErrorCode::InvalidArgument, "--psid picks boards of -i PACKAGE, not of --bins"));
  Result<Mfa2RepackResult> made = make_error(ErrorCode::Internal, "nothing written");
  if (!inputs.empty()) {
    made = create_from_images(inputs, out_path);
  } else {
    auto source = open_package(options.image);
    if (!source) return report_error(options, source.error());
    made = repack_as_mfa2(**source, psids, largest_flash_size(), out_path, repack_progress(options));
    if (!made) made = make_error(made.error().with_context(options.image));
  }
  if (!made) return report_error(options, made.error());
  if (options.json) {
    cli::print_json(nlohmann::json{{"ok", true}, {"output", out_path}, {"format", "mfa2"}, {"psids", made->psids},
                                   {"cb_size", made->cb_size}, {"size", made->size}});
  } else {
    std::cout << "Wrote " << out_path << ": " << made->psids.size() << " device(s), " << made->size << " bytes\n";
  }
  return cli::kOk;
}

}  // namespace openflint::flint
