// FlashCommands: raw flash access on -d DEVICE — erase, rw, ww, wwne, rb, wb, ri.
#include <array>
#include <cstdio>
#include <functional>
#include <iostream>

#include "cli/ExitCode.h"
#include "core/HexString.h"
#include "core/OutputFile.h"
#include "flint/Commands.h"
#include "flint/DeviceAccess.h"
#include "flint/Progress.h"
#include "flint/Report.h"
#include "fwops/SectorJournal.h"
#include "image/FirmwareImage.h"
#include "image/FlashImage.h"

namespace openflint::cli {
namespace {

using FlashJob = std::function<int(Device&, FlashDriver&)>;

Result<void> write_and_commit(OutputFile& out, Bytes bytes) {
  OF_TRY(out.write(bytes));
  return out.commit();
}

// Opens the device and its flash, runs `job`, releases the flash lock, saves the device.
int with_flash(const Options& options, const FlashJob& job) {
  auto device = open_cli_device(options);
  if (!device) return report_error(options, device.error());
  int rc = kOk;
  {
    auto flash = open_flash(*device);
    rc = flash ? job(*device, *flash) : report_error(options, flash.error());
  }
  return finish(options, *device, rc);
}

void print_ok(const Options& options, nlohmann::json doc, const std::string& text) {
  doc["ok"] = true;
  if (options.json) {
    std::cout << doc.dump(2) << '\n';
  } else if (!text.empty()) {
    std::cout << text << '\n';
  }
}

Result<std::uint32_t> parse_dword_address(const std::string& text) {
  OF_ASSIGN(std::uint64_t address, parse_number(text, "address"));
  if (address % 4 != 0 || address > 0xffffffffu) {
    return make_error(ErrorCode::InvalidArgument, "address " + text + " must be a dword-aligned 32-bit offset");
  }
  return static_cast<std::uint32_t>(address);
}

std::array<std::uint8_t, 4> be_bytes(std::uint32_t v) {
  return {static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
          static_cast<std::uint8_t>(v)};
}

std::string dword_text(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

nlohmann::json report_json(const SafeWriteReport& r) {
  return {{"sectors_unchanged", r.sectors_unchanged},
          {"sectors_in_place", r.sectors_in_place},
          {"sectors_journaled", r.sectors_journaled},
          {"sectors_forced", r.sectors_forced}};
}

// Writes through the power-cut-safe path (docs/flash-writes.md).
int safe_write(const Options& options, FlashDriver& flash, std::uint64_t address, std::span<const std::uint8_t> bytes,
               const std::string& what) {
  auto report = write_preserving(flash, address, bytes, options.force);
  if (!report) return report_error(options, report.error().with_context(what));
  nlohmann::json doc = report_json(*report);
  doc["address"] = hex(address);
  doc["size"] = bytes.size();
  print_ok(options, doc, "");
  return kOk;
}

}  // namespace

int run_erase(const Options& options, const std::string& address_text) {
  auto address = parse_number(address_text, "address");
  if (!address) return report_error(options, address.error());
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    const std::uint64_t sector = *address - *address % flash.sector_size();
    if (auto r = flash.erase_sector(sector); !r) return report_error(options, r.error().with_context(device.name()));
    print_ok(options, {{"sector", hex(sector)}, {"size", flash.sector_size()}},
             "-I- Erased sector " + hex(sector) + " (" + std::to_string(flash.sector_size()) + " bytes)");
    return int{kOk};
  });
}

int run_rw(const Options& options, const std::string& address_text) {
  auto address = parse_dword_address(address_text);
  if (!address) return report_error(options, address.error());
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    auto bytes = flash.read(*address, 4);
    if (!bytes) return report_error(options, bytes.error().with_context(device.name()));
    const std::uint32_t v = (std::uint32_t{(*bytes)[0]} << 24) | (std::uint32_t{(*bytes)[1]} << 16) |
                            (std::uint32_t{(*bytes)[2]} << 8) | (*bytes)[3];
    print_ok(options, {{"address", hex(*address)}, {"value", dword_text(v)}}, dword_text(v));
    return int{kOk};
  });
}

int run_ww(const Options& options, const std::string& address_text, const std::string& data_text) {
  auto address = parse_dword_address(address_text);
  if (!address) return report_error(options, address.error());
  auto data = parse_number(data_text, "data");
  if (!data || *data > 0xffffffffu) {
    return report_error(options, Error(ErrorCode::InvalidArgument, "data '" + data_text + "' is not a 32-bit value"));
  }
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    const auto bytes = be_bytes(static_cast<std::uint32_t>(*data));
    return safe_write(options, flash, *address, bytes, device.name() + ": ww " + hex(*address));
  });
}

int run_wwne(const Options& options, const std::string& address_text, const std::string& data_text) {
  auto address = parse_dword_address(address_text);
  if (!address) return report_error(options, address.error());
  auto data = parse_number(data_text, "data");
  if (!data || *data > 0xffffffffu) {
    return report_error(options, Error(ErrorCode::InvalidArgument, "data '" + data_text + "' is not a 32-bit value"));
  }
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    const auto bytes = be_bytes(static_cast<std::uint32_t>(*data));
    const std::string what = device.name() + ": wwne " + hex(*address);
    if (auto r = flash.program(*address, bytes); !r) return report_error(options, r.error().with_context(what));
    auto back = flash.read(*address, 4);
    if (!back) return report_error(options, back.error().with_context(what));
    if (!std::equal(back->begin(), back->end(), bytes.begin())) {
      return report_error(options, Error(ErrorCode::Mismatch,
                                         what + ": flash reads back " + hex((*back)[0]) + ".. instead of " +
                                             dword_text(static_cast<std::uint32_t>(*data)) +
                                             ": without an erase bits can only go from 1 to 0 (use ww)"));
    }
    print_ok(options, {{"address", hex(*address)}, {"value", dword_text(static_cast<std::uint32_t>(*data))}}, "");
    return int{kOk};
  });
}

int run_rb(const Options& options, const std::string& address_text, const std::string& size_text,
           const std::string& out_path) {
  auto address = parse_number(address_text, "address");
  if (!address) return report_error(options, address.error());
  auto size = parse_number(size_text, "size");
  if (!size) return report_error(options, size.error());
  auto out = OutputFile::create(out_path);  // a refused output is refused before the flash is read
  if (!out) return report_error(options, out.error());
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    auto bytes = flash.read(*address, *size, progress_line(options, "Reading"));
    if (!bytes) return report_error(options, bytes.error().with_context(device.name()));
    if (auto w = write_and_commit(*out, *bytes); !w) return report_error(options, w.error());
    print_ok(options, {{"address", hex(*address)}, {"size", *size}, {"output", out_path}}, "");
    return int{kOk};
  });
}

int run_wb(const Options& options, const std::string& in_path, const std::string& address_text) {
  auto address = parse_number(address_text, "address");
  if (!address) return report_error(options, address.error());
  auto bytes = read_whole_file(in_path);
  if (!bytes) return report_error(options, bytes.error());
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    return safe_write(options, flash, *address, *bytes, device.name() + ": wb " + in_path);
  });
}

int run_ri(const Options& options, const std::string& out_path) {
  auto out = OutputFile::create(out_path);
  if (!out) return report_error(options, out.error());
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    auto all = read_image_flash(options, device, flash, true);
    if (!all) return report_error(options, all.error().with_context(device.name()));
    // A file that verifies on its own: the active copy from offset 0 and the board's device
    // data at its flash addresses (image/FlashImage.h).
    auto file = image_file_from_flash(*all);
    if (!file) return report_error(options, file.error().with_context(device.name() + ": no image to read"));
    const std::vector<std::uint8_t>& image = *file;
    const std::uint64_t size = image.size();
    auto query = query_image(*all);
    const std::uint64_t start = query ? query->image_start : 0;
    if (auto w = write_and_commit(*out, image); !w) return report_error(options, w.error());
    print_ok(options, {{"image_start", hex(start)}, {"size", size}, {"output", out_path}}, "");
    return int{kOk};
  });
}

}  // namespace openflint::cli
