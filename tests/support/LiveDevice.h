// LiveDevice: simulated devices whose running firmware takes burns (images built with MCC), for the firmware-path tests.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <filesystem>

#include "core/Result.h"
#include "fwops/Device.h"
#include "sim/SimDevice.h"

namespace openflint::test {

// The board's own GUID and MAC: different from every synthetic file's, so a burn that loses
// them shows.
inline constexpr std::uint64_t kLiveBoardGuid = 0x0002c90300aa5500ull;
inline constexpr std::uint64_t kLiveBoardMac = 0x0002c9aa5500ull;

// An FS3 image FW 12.`minor`.1100 built with MCC (IMAGE_INFO mcc_en), unless `mcc` is false.
[[nodiscard]] std::vector<std::uint8_t> mcc_fs3(std::uint16_t minor, std::uint32_t hw_id = 0x209,
                                                std::string psid = "MT_0000000001", bool mcc = true);

// A powered-on `model` whose flash holds `image` at 0 and runs it.
[[nodiscard]] std::unique_ptr<sim::SimDevice> device_running(const std::string& model,
                                                             const std::vector<std::uint8_t>& image);

// A ConnectX-4 running mcc_fs3(28) with the board's GUID and MAC (kLiveBoardGuid/Mac).
[[nodiscard]] std::unique_ptr<sim::SimDevice> live_connectx4();
// The same board as a sim:PATH device in `dir` (not yet saved: commit() it for the CLI).
[[nodiscard]] Result<Device> live_sim_connectx4(const std::filesystem::path& dir);
// Its flash contents, `flash_size` bytes.
[[nodiscard]] std::vector<std::uint8_t> live_board_flash(std::size_t flash_size);

}  // namespace openflint::test
