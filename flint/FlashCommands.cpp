// FlashCommands: raw flash access on -d DEVICE — erase, rw, ww, wwne, rb, wb, ri; every write checks, then writes.
#include <array>
#include <functional>
#include <iostream>

#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "core/HexString.h"
#include "core/OutputFile.h"
#include "flint/Commands.h"
#include "flint/Confirm.h"
#include "flint/DeviceAccess.h"
#include "fwops/DeviceFlash.h"
#include "flint/Progress.h"
#include "reports/ImageReport.h"
#include "fwops/burn/BootGuard.h"
#include "fwops/burn/SectorJournal.h"
#include "image/BootCopy.h"
#include "image/FirmwareImage.h"
#include "image/FlashImage.h"

namespace openflint::flint {
using namespace openflint::reports;  // the documents the tools print (reports/)
namespace {

Result<void> write_and_commit(OutputFile& out, Bytes bytes) {
  OF_TRY(out.write(bytes));
  return out.commit();
}

void print_ok(const Options& options, nlohmann::json doc, const std::string& text) {
  doc["ok"] = true;
  if (options.json) {
    cli::print_json(doc);
  } else if (!text.empty()) {
    std::cout << text << '\n';
  }
}

Result<std::uint32_t> parse_dword_address(const std::string& text) {
  OF_ASSIGN(std::uint64_t address, cli::parse_number(text, "address"));
  if (address % 4 != 0 || address > 0xffffffffu) {
    return make_error(ErrorCode::InvalidArgument, "address " + text + " must be a dword-aligned 32-bit offset");
  }
  return static_cast<std::uint32_t>(address);
}

std::array<std::uint8_t, 4> be_bytes(std::uint32_t v) {
  return {static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
          static_cast<std::uint8_t>(v)};
}

std::string dword_text(std::uint32_t v) { return hex_dword(v); }

std::string hex_bytes(const std::vector<std::uint8_t>& b) {
  return dword_text((std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3]);
}

nlohmann::json report_json(const SafeWriteReport& r) {
  return {{"sectors_unchanged", r.sectors_unchanged},
          {"sectors_in_place", r.sectors_in_place},
          {"sectors_journaled", r.sectors_journaled},
          {"sectors_forced", r.sectors_forced}};
}

// Check before asking: cli::kOk when `edits` leave the device booting (or it boots nothing now);
// otherwise asks (Confirm.h) and returns cli::kDeclined on no.
int guard_boot(const Options& options, Device& device, FlashDriver& flash, std::span<const FlashEdit> edits,
               const std::string& what) {
  auto impact = boot_impact(device.access(), device.info(), flash, edits);
  if (!impact) return report_error(options, impact.error().with_context(what));
  if (!impact->loses_last_copy()) return cli::kOk;
  if (confirm(options, what + " leaves the device with no bootable copy (the copy at " + hex(*impact->boots_now) +
                           " would not boot)"))
    return cli::kOk;
  if (options.json) cli::print_json(nlohmann::json{{"ok", false}, {"declined", true}});
  return cli::kDeclined;
}

// Writes through the power-cut-safe path (docs/flash-writes.md): every sector is planned (and
// the write refused as a whole) before the first byte is written.
int safe_write(const Options& options, Device& device, FlashDriver& flash, std::uint64_t address,
               std::span<const std::uint8_t> bytes, const std::string& what) {
  const FlashEdit edit{address, std::vector<std::uint8_t>(bytes.begin(), bytes.end())};
  const std::span<const FlashEdit> edits(&edit, 1);
  auto plan = plan_preserving_write(flash, edits, options.force);
  if (!plan) return report_error(options, plan.error().with_context(what));
  if (int rc = guard_boot(options, device, flash, edits, what); rc != cli::kOk) return rc;
  auto report = apply_write_plan(flash, *plan);
  if (!report) return report_error(options, report.error().with_context(what));
  nlohmann::json doc = report_json(*report);
  doc["address"] = hex(address);
  doc["size"] = bytes.size();
  print_ok(options, doc, "");
  return cli::kOk;
}

}  // namespace

int run_erase(const Options& options, const std::string& address_text) {
  auto address = cli::parse_number(address_text, "address");
  if (!address) return report_error(options, address.error());
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    const std::uint64_t sector = *address - *address % flash.sector_size();
    const std::string what = device.name() + ": erase " + hex(sector);
    if (sector >= flash.size())
      return report_error(options, Error(ErrorCode::InvalidArgument, what + ": past the end of the " +
                                                                         hex(flash.size()) + "-byte flash"));
    const FlashEdit blank{sector, std::vector<std::uint8_t>(flash.sector_size(), 0xff)};
    if (int rc = guard_boot(options, device, flash, std::span<const FlashEdit>(&blank, 1), what); rc != cli::kOk) return rc;
    if (auto r = flash.erase_sector(sector); !r) return report_error(options, r.error().with_context(device.name()));
    print_ok(options, {{"sector", hex(sector)}, {"size", flash.sector_size()}},
             "-I- Erased sector " + hex(sector) + " (" + std::to_string(flash.sector_size()) + " bytes)");
    return int{cli::kOk};
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
    return int{cli::kOk};
  });
}

int run_ww(const Options& options, const std::string& address_text, const std::string& data_text) {
  auto address = parse_dword_address(address_text);
  if (!address) return report_error(options, address.error());
  auto data = cli::parse_number(data_text, "data");
  if (!data || *data > 0xffffffffu) {
    return report_error(options, Error(ErrorCode::InvalidArgument, "data '" + data_text + "' is not a 32-bit value"));
  }
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    const auto bytes = be_bytes(static_cast<std::uint32_t>(*data));
    return safe_write(options, device, flash, *address, bytes, device.name() + ": ww " + hex(*address));
  });
}

int run_wwne(const Options& options, const std::string& address_text, const std::string& data_text) {
  auto address = parse_dword_address(address_text);
  if (!address) return report_error(options, address.error());
  auto data = cli::parse_number(data_text, "data");
  if (!data || *data > 0xffffffffu) {
    return report_error(options, Error(ErrorCode::InvalidArgument, "data '" + data_text + "' is not a 32-bit value"));
  }
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    const auto bytes = be_bytes(static_cast<std::uint32_t>(*data));
    const std::string what = device.name() + ": wwne " + hex(*address);
    // Check, then write: a program that cannot give the value must not change the flash.
    if (std::uint64_t{*address} + 4 > flash.size())
      return report_error(options, Error(ErrorCode::InvalidArgument, what + ": past the end of the " +
                                                                         hex(flash.size()) + "-byte flash"));
    if (auto r = check_outside_scratch(flash, *address, 4, options.force); !r)
      return report_error(options, r.error().with_context(what));
    auto current = flash.read(*address, 4);
    if (!current) return report_error(options, current.error().with_context(what));
    for (std::size_t i = 0; i < 4; ++i) {
      if ((bytes[i] & ~(*current)[i]) != 0)
        return report_error(options, Error(ErrorCode::Mismatch,
                                           what + ": flash holds " + hex_bytes(*current) + "; " +
                                               dword_text(static_cast<std::uint32_t>(*data)) +
                                               ": without an erase bits can only go from 1 to 0 (use ww)"));
    }
    const FlashEdit edit{*address, std::vector<std::uint8_t>(bytes.begin(), bytes.end())};
    if (int rc = guard_boot(options, device, flash, std::span<const FlashEdit>(&edit, 1), what); rc != cli::kOk) return rc;
    if (auto r = flash.program(*address, bytes); !r) return report_error(options, r.error().with_context(what));
    auto back = flash.read(*address, 4);
    if (!back) return report_error(options, back.error().with_context(what));
    if (!std::equal(back->begin(), back->end(), bytes.begin()))
      return report_error(options, Error(ErrorCode::Mismatch, what + ": flash reads back " + hex_bytes(*back)));
    print_ok(options, {{"address", hex(*address)}, {"value", dword_text(static_cast<std::uint32_t>(*data))}}, "");
    return int{cli::kOk};
  });
}

int run_rb(const Options& options, const std::string& address_text, const std::string& size_text,
           const std::string& out_path) {
  auto address = cli::parse_number(address_text, "address");
  if (!address) return report_error(options, address.error());
  auto size = cli::parse_number(size_text, "size");
  if (!size) return report_error(options, size.error());
  auto out = OutputFile::create(out_path);  // a refused output is refused before the flash is read
  if (!out) return report_error(options, out.error());
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    auto bytes = flash.read(*address, *size, progress_line(options, "Reading"));
    if (!bytes) return report_error(options, bytes.error().with_context(device.name()));
    if (auto w = write_and_commit(*out, *bytes); !w) return report_error(options, w.error());
    print_ok(options, {{"address", hex(*address)}, {"size", *size}, {"output", out_path}}, "");
    return int{cli::kOk};
  });
}

int run_wb(const Options& options, const std::string& in_path, const std::string& address_text) {
  auto address = cli::parse_number(address_text, "address");
  if (!address) return report_error(options, address.error());
  auto bytes = read_whole_file(in_path);
  if (!bytes) return report_error(options, bytes.error());
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    return safe_write(options, device, flash, *address, *bytes, device.name() + ": wb " + in_path);
  });
}

int run_ri(const Options& options, const std::string& out_path) {
  auto out = OutputFile::create(out_path);
  if (!out) return report_error(options, out.error());
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    auto found = openflint::read_device_flash(device, flash, true, progress_line(options, "Reading flash"));
    if (!found) return report_error(options, found.error().with_context(device.name()));
    const std::vector<std::uint8_t>* all = &found->bytes;
    // A file that verifies on its own: the copy the boot ROM starts, moved to offset 0, and the
    // board's device data at its flash addresses (image/FlashImage.h).
    auto file = found->image_found
                    ? image_file_from_copy(*all, BootCopy{found->format, found->copy_start, 0, *found->query})
                    : image_file_from_flash(*all);
    if (!file) return report_error(options, file.error().with_context(device.name() + ": no image to read"));
    const std::vector<std::uint8_t>& image = *file;
    const std::uint64_t size = image.size();
    const std::uint64_t start = found->query ? found->query->image_start : 0;
    if (auto w = write_and_commit(*out, image); !w) return report_error(options, w.error());
    print_ok(options, {{"image_start", hex(start)}, {"size", size}, {"output", out_path}}, "");
    return int{cli::kOk};
  });
}

}  // namespace openflint::flint
