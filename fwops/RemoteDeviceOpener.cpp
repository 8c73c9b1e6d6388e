// RemoteDeviceOpener: opens a device served by an mstmtserver (HOST:PORT,DEVICE) over TCP.
#include "devices/DeviceCatalog.h"
#include "fwops/Device.h"
#include "mtcr/BusConnection.h"
#include "mtcr/RemoteBusAccess.h"

namespace openflint {

Result<Device> open_remote_device(std::string_view name, const RemoteDeviceName& remote,
                                  const DeviceOpenOptions& options) {
  Device device;
  device.name_ = std::string(name);
  // No lock here: the lock that matters is on the device's host, which the server takes when it
  // opens the device; a lock file on this host would serialize nothing.
  auto connection = BusConnection::connect_tcp(remote.host, remote.port, options.remote_timeout);
  if (!connection) return make_error(std::move(connection).error().with_context(device.name_ + ": connecting"));
  auto access = RemoteBusAccess::open(std::move(*connection), remote.device, options.remote_timeout);
  if (!access) return make_error(std::move(access).error().with_context(device.name_));
  device.remote_ = std::move(*access);
  device.access_ = device.remote_.get();
  OF_ASSIGN(const DeviceInfo* info, identify_device(*device.access_, device.name_));
  device.info_ = info;  // the running firmware (MGIR, through the server's register channel) is read on first use
  return device;
}

}  // namespace openflint
