// MaintenanceCommands: swreset, hw query, dc, wbne, clear_semaphore and bb on -d DEVICE.
#include <unistd.h>

#include <algorithm>
#include <iostream>

#include "core/OutputFile.h"
#include "flint/Commands.h"
#include "cli/JsonOutput.h"
#include "flint/Confirm.h"
#include "flint/DeviceAccess.h"
#include "fwops/DeviceBurn.h"
#include "fwops/DeviceFlash.h"
#include "cli/ExitCode.h"
#include "flint/ImageSource.h"
#include "flint/Commands.h"
#include "flint/Progress.h"
#include "reports/ImageReport.h"
#include "core/Interrupt.h"
#include "fwops/BurnTypes.h"
#include "fwops/access/StaleLocks.h"
#include "image/FirmwareImage.h"

namespace openflint::flint {
using namespace openflint::reports;  // the documents the tools print (reports/)
namespace {

// SPI NOR status register: block-protect bits BP0..BP2 (bits 4:2) — nonzero protects part of the array.
constexpr std::uint8_t kBlockProtectMask = 0x1c;

void print_field(const std::string& name, const std::string& value) {
  std::cout << "  " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ') << value << '\n';
}

Result<std::vector<std::uint8_t>> parse_words(const std::string& size_text, const std::vector<std::string>& words) {
  OF_ASSIGN(const std::uint64_t size, cli::parse_number(size_text, "size"));
  if (size == 0 || size % 4 != 0 || size / 4 != words.size()) {
    return make_error(ErrorCode::InvalidArgument, "size " + size_text + " must be 4 bytes per DATA word (" +
                                                      std::to_string(words.size()) + " given)");
  }
  std::vector<std::uint8_t> bytes;
  for (const std::string& w : words) {
    auto v = cli::parse_number(w, "data");
    if (!v || *v > 0xffffffffu) return make_error(ErrorCode::InvalidArgument, "data '" + w + "' is not a 32-bit value");
    for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(static_cast<std::uint8_t>(*v >> shift));
  }
  return bytes;
}

}  // namespace

int run_swreset(const Options& options) {
  {
    auto device = open_cli_device(options);
    if (!device) return report_error(options, device.error());
    if (device->info().kind != DeviceKind::Switch) {
      return report_error(options, Error(ErrorCode::NotSupported, "swreset: " + device->name() + " is a " +
                                                                      std::string(device->info().name) +
                                                                      " adapter; swreset resets switches only"));
    }
  }  // released: the reset opens it again
  return run_device_reset(options);
}

int run_hw_query(const Options& options) {
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    auto status = flash.read_status();
    if (!status) return report_error(options, status.error().with_context(device.name() + ": reading the flash status"));
    const bool protected_ = (*status & kBlockProtectMask) != 0;
    const DeviceInfo& info = device.info();
    if (options.json) {
      nlohmann::json doc{{"ok", true},
                         {"hw_dev_id", info.hw_id},
                         {"hw_rev_id", info.hw_revision ? nlohmann::json(*info.hw_revision) : nlohmann::json(nullptr)},
                         {"flash",
                          {{"type", flash.chip().name},
                           {"vendor", flash.chip().vendor},
                           {"jedec_id", hex(flash.jedec_id(), 6)},
                           {"total_size", flash.size()},
                           {"sector_size", flash.sector_size()},
                           {"write_block_size", flash.chip().page_size},
                           {"status_register", hex(*status, 2)},
                           {"write_protected", protected_}}}};
      cli::print_json(doc);
      return int{cli::kOk};
    }
    std::cout << "HW Info:\n";
    print_field("HwDevId", std::to_string(info.hw_id));
    if (info.hw_revision) print_field("HwRevId", hex(*info.hw_revision));
    std::cout << "Flash Info:\n";
    print_field("Type", std::string(flash.chip().name) + " (" + std::string(flash.chip().vendor) + ")");
    print_field("JEDEC ID", hex(flash.jedec_id(), 6));
    print_field("TotalSize", hex(flash.size()));
    print_field("Banks", "0x1");
    print_field("SectorSize", hex(flash.sector_size()));
    print_field("WriteBlockSize", hex(flash.chip().page_size));
    print_field("Flash0.WriteProtected",
                protected_ ? "Enabled (status register " + hex(*status, 2) + ")" : std::string("Disabled"));
    return int{cli::kOk};
  });
}

int run_device_dump_config(const Options& options, const std::string& out_path) {
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    auto file = read_device_image_file(options, device, flash);
    if (!file) return report_error(options, file.error());
    auto ini = dump_config(*file);
    if (!ini) return report_error(options, ini.error().with_context(device.name()));
    if (out_path.empty()) {
      std::cout << *ini;
      return int{cli::kOk};
    }
    // The same output rules as `-i IMG dc OUT` (core/OutputFile: atomic, no link followed).
    const Bytes text(reinterpret_cast<const std::uint8_t*>(ini->data()), ini->size());
    if (auto w = write_output_file(out_path, text); !w) return report_error(options, w.error());
    return int{cli::kOk};
  });
}

int run_wbne(const Options& options, const std::string& address_text, const std::string& size_text,
             const std::vector<std::string>& data) {
  auto address = cli::parse_number(address_text, "address");
  if (!address) return report_error(options, address.error());
  if (*address % 4 != 0 || *address > 0xffffffffu) {
    return report_error(options, Error(ErrorCode::InvalidArgument,
                                       "address " + address_text + " must be a dword-aligned 32-bit offset"));
  }
  auto bytes = parse_words(size_text, data);
  if (!bytes) return report_error(options, bytes.error());
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    const std::string what = device.name() + ": wbne " + hex(*address);
    if (auto r = flash.program(*address, *bytes); !r) return report_error(options, r.error().with_context(what));
    auto back = flash.read(*address, bytes->size());
    if (!back) return report_error(options, back.error().with_context(what));
    if (*back != *bytes) {
      const auto at = std::mismatch(back->begin(), back->end(), bytes->begin()).first - back->begin();
      return report_error(options, Error(ErrorCode::Mismatch,
                                         what + ": flash reads back differently at " +
                                             hex(*address + static_cast<std::uint64_t>(at)) +
                                             ": without an erase bits can only go from 1 to 0 (use wb)"));
    }
    if (options.json) {
      cli::print_json(nlohmann::json{{"ok", true}, {"address", hex(*address)}, {"size", bytes->size()}});
    }
    return int{cli::kOk};
  });
}

int run_clear_semaphore(const Options& options) {
  // Opened without needing any lock the device may hold: the VSEC gateway semaphore is freed
  // before the hw id is read through it. The device lock is taken as for any command, so a live
  // openflint process using the device makes this Busy (named) instead of clearing under it.
  auto device = open_cli_device(options, /*clear_gateway_semaphore=*/true);
  if (!device) {
    return report_error(options, device.error().code() == ErrorCode::Busy
                                     ? device.error().with_context("clear_semaphore: not freeing locks a live process may hold")
                                     : device.error());
  }
  auto report = reclaim_stale_locks(*device);
  if (!report) return finish(options, *device, report_error(options, report.error().with_context(device->name())));
  if (options.json) {
    nlohmann::json freed = nlohmann::json::array();
    for (const ReclaimedLock& l : report->freed) freed.push_back({{"what", l.what}, {"detail", l.detail}});
    cli::print_json(nlohmann::json{{"ok", true}, {"freed", freed}, {"not_checked", report->not_checked}});
  } else {
    for (const ReclaimedLock& l : report->freed)
      std::cout << "-I- Freed " << l.what << " of " << device->name() << " (" << l.detail << ")\n";
    if (report->freed.empty()) std::cout << "-I- Nothing was held on " << device->name() << '\n';
    for (const std::string& n : report->not_checked) std::cerr << "-W- Not checked on " << device->name() << ": " << n << '\n';
  }
  return finish(options, *device, cli::kOk);
}

int run_burn_block(const Options& options) {
  auto source = open_image(options);
  if (!source) return report_error(options, source.error());
  auto device = open_cli_device(options);
  if (!device) return report_error(options, device.error());
  BurnOptions b;
  b.failsafe = false;
  b.verify_writes = !options.no_flash_verify;
  b.allow_psid_change = true;  // bb burns the image as is
  b.override_firmware = options.ocr;  // else through the firmware when it owns the flash
  auto line = progress_line(options, "Burning");
  if (line) b.progress = [line](const BurnProgress& p) { line(p.done, p.total); };
  // Asked once the flash is open (an interrupted ww/wb finished) and read, before any write.
  b.decide = [&](const BurnPreflight&) -> Result<bool> {
    if (confirm(options, "bb writes " + source->label() + " over " + device->name() +
                             "'s flash in place, without failsafe: a power cut leaves no bootable image"))
      return true;
    OF_TRY(check_interrupted());  // Ctrl-C at the question: a stop, not an answer
    return false;
  };
  auto report = burn_device_flash(*device, source->bytes(), b);
  if (!report && report.error().code() == ErrorCode::Cancelled) {
    if (options.json) cli::print_json(cli::error_json(Error(ErrorCode::Cancelled, "bb declined")));
    return finish(options, *device, cli::kDeclined);
  }
  if (!report) return finish(options, *device, report_error(options, report.error().with_context("bb")));
  if (options.json) {
    cli::print_json(nlohmann::json{{"ok", true},
                                {"sectors_erased", report->sectors_erased},
                                {"sectors_unchanged", report->sectors_unchanged},
                                {"bytes_programmed", report->bytes_programmed}});
  } else {
    std::cout << "-I- Burned " << source->label() << " in place; it runs after 'flint -d " << device->name()
              << " reset'\n";
  }
  return finish(options, *device, cli::kOk);
}

}  // namespace openflint::flint
