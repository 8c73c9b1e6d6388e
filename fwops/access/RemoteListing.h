// RemoteListing: the devices a remote host serves (L), each opened by its remote name and queried.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "devices/DeviceInfo.h"
#include "fwops/Device.h"
#include "image/ImageQuery.h"
#include "mtcr/remote/RemoteDeviceName.h"
#include "mtcr/remote/RemoteHost.h"

namespace openflint {

// One device a host listed. What works over the bus protocol: the hw id (catalog record) and the
// image on flash (its query: FW version, PSID, GUIDs); no running firmware (no MGIR remotely).
struct RemoteDeviceStatus {
  RemoteDeviceName remote;  // the host and the device as it listed it
  std::string name;         // the name the tools open it by (remote_device_name)
  const DeviceInfo* info = nullptr;  // null: not opened
  std::optional<ImageQuery> flash;   // the image on flash; nullopt: blank or unreadable (see error)
  std::optional<std::uint64_t> node_guid;  // image/NodeGuid.h
  std::string error;  // why it could not be opened or its flash read; empty when all went well
};

struct RemoteHostStatus {
  RemoteHost host;
  std::string error;  // the host could not be reached or did not list its devices
  std::vector<RemoteDeviceStatus> devices;
};

// The name a tool opens `device` on `host` by: HOST:PORT,DEVICE (MFT's form) for TCP hosts; for
// ssh hosts the host spec, '/', then the device.
[[nodiscard]] std::string remote_device_name(const RemoteHost& host, const std::string& device);

// Opens the device a host serves (open_remote_device, with options.remote_timeout).
[[nodiscard]] Result<Device> open_host_device(const RemoteHost& host, const std::string& device,
                                              const DeviceOpenOptions& options = {});

// Connects (options.remote_timeout), asks L, then opens each listed device on a connection of its
// own and queries its flash. Never fails as a whole: the host's or a device's problem is its error.
[[nodiscard]] RemoteHostStatus list_remote_host(const RemoteHost& host, const DeviceOpenOptions& options = {});

}  // namespace openflint
