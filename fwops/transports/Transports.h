// Transports: each transport's entries in the opener table (fwops/DeviceOpener.cpp kTransports).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/Result.h"
#include "fwops/Device.h"
#include "fwops/recording/SessionRecording.h"

// One pair per file of fwops/transports/: whether a device name is of that transport's forms, and
// opening it (a Device over the transport, identified through the catalog). A new transport adds
// its file, its pair here and its row to kTransports.
namespace openflint::transports {

[[nodiscard]] bool sim_matches(std::string_view name, const DeviceOpenOptions& options);
[[nodiscard]] Result<Device> open_sim(std::string_view name, const DeviceOpenOptions& options);

[[nodiscard]] bool remote_matches(std::string_view name, const DeviceOpenOptions& options);
[[nodiscard]] Result<Device> open_remote(std::string_view name, const DeviceOpenOptions& options);

[[nodiscard]] bool pci_matches(std::string_view name, const DeviceOpenOptions& options);
// open_pci_device (fwops/Device.h) opens.

[[nodiscard]] bool inband_matches(std::string_view name, const DeviceOpenOptions& options);
[[nodiscard]] Result<Device> open_inband(std::string_view name, const DeviceOpenOptions& options);

// replay:FILE — a recorded session played back (ReplayTransport.cpp, docs/recording.md).
[[nodiscard]] bool replay_matches(std::string_view name, const DeviceOpenOptions& options);
[[nodiscard]] Result<Device> open_replay(std::string_view name, const DeviceOpenOptions& options);

// name:NODE — resolved by the ibadm name server to another row's name, which is opened (NameTransport.cpp, docs/ibadm.md).
[[nodiscard]] bool name_matches(std::string_view name, const DeviceOpenOptions& options);
[[nodiscard]] Result<Device> open_name(std::string_view name, const DeviceOpenOptions& options);

// Recording (RecordingTransport.cpp): a decorator, not a row. The "open" record of `device` (its
// catalog record and the transport properties a replay must answer alike), and putting the
// recorder over `device`'s transport after writing that record to `log`.
[[nodiscard]] std::string open_record(Device& device);
// The request of one firmware command (DeviceTransport::firmware_command), as recorded and replayed.
[[nodiscard]] std::string firmware_command_record(std::uint16_t opcode, std::span<const std::uint8_t> in, std::size_t out_bytes);
[[nodiscard]] Result<void> record_session(Device& device, SessionLog& log);

}  // namespace openflint::transports
