// FlashSession: differential writes with accounting, the boot-address register.
#include "fwops/burn/FlashSession.h"

#include <string>

#include "core/HexString.h"

namespace openflint {

FlashSession::FlashSession(RegisterAccess& access, const DeviceInfo& info, FlashDriver& driver,
                           const BurnOptions& options)
    : access_(&access),
      info_(&info),
      driver_(&driver),
      options_(&options),
      flash_(driver.size(), [&driver](std::uint64_t address, std::span<std::uint8_t> out) {
        return driver.read_into(address, out);
      }) {}

FlashSession::FlashSession(RegisterAccess& access, const DeviceInfo& info, std::uint64_t flash_size,
                           FlashView::Reader reader, const BurnOptions& options)
    : access_(&access), info_(&info), driver_(nullptr), options_(&options), flash_(flash_size, std::move(reader)) {}

void FlashSession::progress(std::string_view stage, std::uint64_t done, std::uint64_t total) const {
  if (options_->progress) options_->progress(BurnProgress{stage, done, total});
}

Result<void> FlashSession::write(std::uint64_t address, Bytes bytes, std::string_view stage) {
  const FlashProgress report_progress = [this, stage](std::uint64_t done, std::uint64_t total) {
    progress(stage, done, total);
  };
  if (driver_ == nullptr) return make_error(ErrorCode::Internal, "a reading flash session was asked to write");
  const WriteCheck check = options_->verify_writes ? WriteCheck::ReadBack : WriteCheck::None;
  OF_ASSIGN_CTX(const FlashWriteStats stats, driver_->write_sectors_that_differ(address, bytes, report_progress, check),
                std::string(stage) + " at " + hex_string(address));
  report_.sectors_erased += stats.sectors_erased;
  report_.sectors_unchanged += stats.sectors_unchanged;
  report_.sectors_program_only += stats.sectors_program_only;
  report_.sectors_probed += stats.sectors_probed;
  report_.pages_programmed += stats.pages_programmed;
  report_.bytes_programmed += stats.bytes_programmed;
  return {};
}

Result<void> FlashSession::set_boot_address(std::uint64_t address) {
  const BootAddressRegister& reg = info_->boot_address;
  if (reg.address == 0) return {};
  const std::uint64_t value = address << reg.shift;
  if (value > 0xffffffffu)
    return make_error(ErrorCode::InvalidArgument, "boot address " + hex_string(address) + " does not fit the register");
  OF_TRY_CTX(access_->write32(reg.address, static_cast<std::uint32_t>(value)), "updating the boot address register");
  return {};
}

Result<std::optional<std::uint64_t>> FlashSession::boot_address() {
  const BootAddressRegister& reg = info_->boot_address;
  if (reg.address == 0) return std::optional<std::uint64_t>{};
  OF_ASSIGN(const std::uint32_t value, access_->read32(reg.address));
  return std::optional<std::uint64_t>{std::uint64_t{value} >> reg.shift};
}

}  // namespace openflint
