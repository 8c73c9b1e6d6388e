// FlashSession: the state one flash operation (a query's read, a burn) shares between its steps: device, flash, options, report.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "flash/FlashDriver.h"
#include "fwops/burn/CopyLayout.h"
#include "fwops/BurnTypes.h"
#include "fwops/edit/FlashView.h"
#include "image/ImageQuery.h"

namespace openflint {

// The copy a device would boot now, as found on its flash.
struct CurrentCopy {
  CopyLayout layout;
  ImageQuery query;
};

class FlashSession {
 public:
  FlashSession(RegisterAccess& access, const DeviceInfo& info, FlashDriver& driver, const BurnOptions& options);
  // A session that reads the flash through `reader` and writes nothing (write() is Internal):
  // a burn through the running firmware reads the current copy this way, the firmware writes.
  FlashSession(RegisterAccess& access, const DeviceInfo& info, std::uint64_t flash_size, FlashView::Reader reader,
               const BurnOptions& options);

  [[nodiscard]] RegisterAccess& access() { return *access_; }
  [[nodiscard]] const DeviceInfo& info() const { return *info_; }
  // Sessions with a driver only (every format burner's writes); see the reading constructor.
  [[nodiscard]] FlashDriver& driver() { return *driver_; }
  [[nodiscard]] const BurnOptions& options() const { return *options_; }
  [[nodiscard]] FlashView& flash() { return flash_; }
  [[nodiscard]] BurnReport& report() { return report_; }

  // write_sectors_that_differ + read-back (unless options().verify_writes is off), counted in the report, progress under `stage`.
  [[nodiscard]] Result<void> write(std::uint64_t address, Bytes bytes, std::string_view stage);
  // Points the boot-address register (catalog) at `address`; no-op when the device has none.
  [[nodiscard]] Result<void> set_boot_address(std::uint64_t address);
  // The boot-address register's copy address, when the device has one.
  [[nodiscard]] Result<std::optional<std::uint64_t>> boot_address();
  void progress(std::string_view stage, std::uint64_t done, std::uint64_t total) const;
  // FS3/FS4: the file's device data replaces the board's (IdentityPlan::write_image_device_data).
  [[nodiscard]] bool write_image_device_data() const { return write_image_device_data_; }
  void set_write_image_device_data(bool on) { write_image_device_data_ = on; }
  // Whether a copy of the new image was completed and made bootable before the burn ended (FS1
  // signs one copy at a time); what a burn a stop signal ended says about the device.
  [[nodiscard]] bool new_copy_boots() const { return new_copy_boots_; }
  void set_new_copy_boots() { new_copy_boots_ = true; }

 private:
  RegisterAccess* access_;
  const DeviceInfo* info_;
  FlashDriver* driver_;  // null: a reading session
  const BurnOptions* options_;
  FlashView flash_;
  BurnReport report_;
  bool write_image_device_data_ = false;
  bool new_copy_boots_ = false;
};

}  // namespace openflint
