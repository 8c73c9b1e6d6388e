// BusDeviceList: asks a bus server which devices it serves (the L request, mft-internals.md §1.2).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "core/Result.h"
#include "mtcr/remote/BusConnection.h"

namespace openflint {

// Bounds on what a server may answer: a longer list or name is a malformed reply, not a reason
// to allocate without limit.
inline constexpr std::size_t kBusMaxListedDevices = 256;
inline constexpr std::size_t kBusMaxDeviceNameBytes = 256;

// Sends "L", reads "O <n>" and then n names, each within `timeout`. Strict: a count over
// kBusMaxListedDevices, an empty name, a name longer than kBusMaxDeviceNameBytes or holding a
// space or a non-printable byte is an Io error naming what was wrong; "E <text>" is the server's
// error. After any error the connection is out of step and should be dropped.
[[nodiscard]] Result<std::vector<std::string>> list_bus_devices(BusConnection& connection,
                                                                std::chrono::milliseconds timeout);

}  // namespace openflint
