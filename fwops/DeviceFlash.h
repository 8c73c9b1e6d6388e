// DeviceFlash: an opened device's flash as every tool uses it (journal finished, read by transport cost).
#pragma once

#include <memory>
#include <string_view>

#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "flash/FlashDriver.h"
#include "flash/FlashReader.h"
#include "fwops/Device.h"
#include "fwops/edit/FlashImageReader.h"
#include "fwops/burn/FlashPath.h"
#include "image/ImageQuery.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

// Locks and probes the flash of `info` behind `access`, then finishes a journaled write that a
// power cut interrupted (docs/flash-writes.md), so whatever follows (a query, a burn, an
// identity read) sees consistent sectors. `name` goes into error context; `i2c`: the device's
// I2C bus for EEPROM flash (FlashDriver::open).
[[nodiscard]] Result<FlashDriver> open_device_flash(RegisterAccess& access, const DeviceInfo& info,
                                                    std::string_view name,
                                                    CacheReplacement cache = CacheReplacement::Refuse,
                                                    I2cAccess* i2c = nullptr);
// The device's flash for every tool that reads or writes it raw (ri, rb, checksum, ww, wb, wbne,
// erase, sg/sv, bb): on a device whose running firmware owns the flash (fwops/burn/FlashPath.h
// flash_path() is Firmware) driven through that firmware (MFBA reads and writes, MFBE erases:
// flash/FirmwareFlashBus), never the CR-space gateway, which the firmware uses; else, or with
// `override_firmware` (--ocr), through the gateway as above. The same journal recovery either way.
// flash_path's error (the firmware cannot be asked) is returned: the gateway is never the fallback.
// Busy errors carry fwops/access/StaleLocks.h advice.
[[nodiscard]] Result<FlashDriver> open_device_flash(Device& device, bool override_firmware = false);
// The same with the path already decided (a burn asks the firmware once).
[[nodiscard]] Result<FlashDriver> open_device_flash(Device& device, FlashPath path);

// Whether reading the whole flash is cheap: not when reads are costly (FlashReader::costly_reads:
// the gateway over MADs or PCI config space, or the firmware's registers); then only what is
// needed is read.
[[nodiscard]] bool reads_whole_flash(const FlashReader& flash);

// The flash as query/verify/ri see it, with the copy the boot ROM starts (image/BootCopy rule):
// the whole flash when that is cheap, else only the blocks of the current copy and (with
// `with_board_data`) its device data, 0xFF elsewhere.
[[nodiscard]] Result<SparseFlash> read_device_flash(Device& device, FlashReader& flash, bool with_board_data = false,
                                                    const FlashProgress& progress = {});
// The query of the copy the device boots (InvalidImage when none is bootable), on every
// transport from just the copy's tables and query sections (a few hundred accesses; see
// fwops/burn/SlotCopy.h for when the copies are read whole to decide which one boots).
[[nodiscard]] Result<ImageQuery> query_device_image(Device& device, FlashReader& flash);

// The flash as query and verify read it: through the running firmware (MFPA/MFBA) when it takes
// burns (fwops/burn/FlashPath.h flash_path; never with `override_firmware`, --ocr), else the gateway
// (open_device_flash). Either is kept for the reader's lifetime (the gateway: its lock). When the
// firmware cannot be asked: flash_path's error, except on a transport without any register
// channel (NotSupported: a legacy mstmtserver), where reads go through the gateway.
[[nodiscard]] Result<std::unique_ptr<FlashReader>> open_device_flash_reader(Device& device, bool override_firmware = false);

}  // namespace openflint
