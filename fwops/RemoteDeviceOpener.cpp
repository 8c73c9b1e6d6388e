// RemoteDeviceOpener: opens a device served by a bus server: HOST:PORT,DEVICE over TCP, ssh:HOST/DEVICE through ssh.
#include <algorithm>
#include <chrono>
#include <thread>

#include "devices/DeviceCatalog.h"
#include "fwops/Device.h"
#include "mtcr/BusConnection.h"
#include "mtcr/BusProtocol.h"
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
  // A name the protocol cannot carry fails here, before a connection (an ssh login) is made.
  if (auto valid = check_bus_device_name(remote.device); !valid)
    return make_error(std::move(valid).error().with_context(device.name_));
  // No lock here: the lock that matters is on the device's host, which the server takes when it
  // opens the device; a lock file on this host would serialize nothing. A busy answer (the device
  // held there, or the server full) is asked again until options.lock_timeout has passed.
  const std::string served[] = {remote.device};
  // Over ssh the first reply comes after the key exchange, the login, the remote shell and the
  // start of `mst server`: seconds on a loaded host, so the replies get that much more time.
  const auto reply_timeout =
      remote.server.transport == RemoteTransport::Ssh ? options.remote_timeout + kSshStartAllowance : options.remote_timeout;
  const auto deadline = std::chrono::steady_clock::now() + options.lock_timeout;
  const auto left = [deadline] {
    return std::max(std::chrono::milliseconds{0}, std::chrono::duration_cast<std::chrono::milliseconds>(
                                                      deadline - std::chrono::steady_clock::now()));
  };
  Result<std::unique_ptr<RemoteBusAccess>> access = make_error(ErrorCode::Internal, "not tried");
  for (;;) {
    auto connection = connect_remote_host(remote.server, served, options.remote_timeout);
    if (!connection) return make_error(std::move(connection).error().with_context(device.name_ + ": connecting"));
    // The device held on the server's host: O is asked again on this connection until the deadline.
    access = RemoteBusAccess::open(std::move(*connection), remote.device, reply_timeout, left());
    // The server full ("server busy", it hung up): a new connection once a session may have ended.
    if (access || access.error().code() != ErrorCode::Busy || left().count() == 0) break;
    std::this_thread::sleep_for(std::min(RemoteBusAccess::kBusyRetryInterval, left()));
  }
  if (!access) return make_error(std::move(access).error().with_context(device.name_));
  device.remote_ = std::move(*access);
  device.access_ = device.remote_.get();
  OF_ASSIGN(const DeviceInfo* info, identify_device(*device.access_, device.name_));
  device.info_ = info;  // the running firmware (MGIR, through the server's register channel) is read on first use
  return device;
}

}  // namespace openflint
