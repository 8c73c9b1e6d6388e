// RemoteDeviceOpener: opens a device served by a bus server: HOST:PORT,DEVICE over TCP, ssh:HOST/DEVICE through ssh.
#include "devices/DeviceCatalog.h"
#include "fwops/Device.h"
#include "mtcr/BusConnection.h"
#include "mtcr/RemoteHostConnection.h"
#include "mtcr/RemoteBusAccess.h"

namespace openflint {
namespace {

constexpr std::chrono::milliseconds kSshStartAllowance{20000};

}  // namespace

Result<Device> open_remote_device(std::string_view name, const RemoteDeviceName& remote,
                                  const DeviceOpenOptions& options) {
  Device device;
  device.name_ = std::string(name);
  // No lock here: the lock that matters is on the device's host, which the server takes when it
  // opens the device; a lock file on this host would serialize nothing.
  const std::string served[] = {remote.device};
  auto connection = connect_remote_host(remote.server, served, options.remote_timeout);
  if (!connection) return make_error(std::move(connection).error().with_context(device.name_ + ": connecting"));
  // Over ssh the first reply comes after the key exchange, the login, the remote shell and the
  // start of `mst server`: seconds on a loaded host, so the replies get that much more time.
  const auto reply_timeout =
      remote.server.transport == RemoteTransport::Ssh ? options.remote_timeout + kSshStartAllowance : options.remote_timeout;
  auto access = RemoteBusAccess::open(std::move(*connection), remote.device, reply_timeout);
  if (!access) return make_error(std::move(access).error().with_context(device.name_));
  device.remote_ = std::move(*access);
  device.access_ = device.remote_.get();
  OF_ASSIGN(const DeviceInfo* info, identify_device(*device.access_, device.name_));
  device.info_ = info;  // the running firmware (MGIR, through the server's register channel) is read on first use
  return device;
}

}  // namespace openflint
