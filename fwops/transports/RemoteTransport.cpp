// RemoteTransport: a device served by a bus server: HOST:PORT,DEVICE over TCP, ssh:HOST/DEVICE through ssh.
#include <algorithm>
#include <chrono>
#include <thread>

#include "devices/DeviceCatalog.h"
#include "fwops/registers/AdapterReset.h"
#include "fwops/Device.h"
#include "fwops/registers/MgirQuery.h"
#include "fwops/transports/Transports.h"
#include "mtcr/remote/BusConnection.h"
#include "mtcr/remote/BusProtocol.h"
#include "mtcr/remote/RemoteHostConnection.h"
#include "mtcr/remote/RemoteBusAccess.h"
#include "mtcr/remote/RemoteDeviceName.h"
#include "mtcr/remote/RemoteRegisterPort.h"

namespace openflint {
namespace {

constexpr std::chrono::milliseconds kSshStartAllowance{20000};
// How parse_ok_reply words an "E" reply; the refusal is quoted without it.
constexpr std::string_view kServerAnswered = "the server answered: ";

// CR-space through the bus server, and registers through openflint's G extension when the server
// has it (not named RemoteTransport: mtcr/remote/RemoteDeviceName.h's TCP-or-ssh enum is). Nothing
// that needs the device's host (sysfs, a PCI reset, VPD) is done from here.
class RemoteDeviceTransport final : public DeviceTransport {
 public:
  explicit RemoteDeviceTransport(std::unique_ptr<RemoteBusAccess> remote) : remote_(std::move(remote)) {}

  [[nodiscard]] RegisterAccess& access() override { return *remote_; }
  [[nodiscard]] Result<std::unique_ptr<RegisterPort>> open_register_port(Device& device) override {
    auto port = RemoteRegisterPort::open(*remote_);
    if (!port) return make_error(std::move(port).error().with_context(device.name()));
    return std::unique_ptr<RegisterPort>(std::move(*port));
  }
  [[nodiscard]] std::optional<RunningFirmware> running_firmware(Device& device) override {
    auto port = device.register_port();  // NotSupported from a legacy server: the running firmware stays unknown
    return port ? query_running(**port, device.info()) : std::nullopt;
  }

  // The server's own reset (openflint's X) when it offers it; else refused (a PCI reset needs the host).
  [[nodiscard]] Result<void> reset(Device& device) override {
    auto done = remote_->server_reset(kBusResetNow, true);
    if (!done)
      return make_error(done.error().code(), "resetting " + device.name() + ": " + done.error().message() +
                                                 " (reset the device on its host, or start its server with --allow-reset)");
    device.invalidate_running_firmware();
    return {};
  }
  // The server's plan when it resets (X <level> 0); when it does not (a legacy server, one without
  // --allow-reset, a blocker of its plan), arming the firmware reset through the register channel.
  void plan_reset(Device& device, const ResetOptions& options, ResetPlan& plan) override {
    auto server = remote_->server_reset(static_cast<std::uint8_t>(options.level), false);
    if (server) {
      plan.by_server = true;
      plan.resets_now = server->resets_now;
      plan.method = "by the bus server: " + server->text;
      return;
    }
    std::string why = server.error().message();
    if (why.starts_with(kServerAnswered)) why.erase(0, kServerAnswered.size());
    plan.server_refusal = why;
    plan_bus_server_reset(device, options, plan);
  }
  [[nodiscard]] Result<std::vector<std::string>> reset_as_planned(Device& device, const ResetPlan& plan,
                                                                  const ResetOptions& options) override {
    if (!plan.by_server) return DeviceTransport::reset_as_planned(device, plan, options);
    auto done = remote_->server_reset(static_cast<std::uint8_t>(options.level), true);
    device.invalidate_running_firmware();  // asked again (MGIR through G) after the server's reset
    if (!done) return make_error(std::move(done).error().with_context("the bus server's reset"));
    return std::vector<std::string>{};
  }
  [[nodiscard]] bool behind_bus_server() const override { return true; }
  [[nodiscard]] std::string_view reached_over() const override { return "a bus server (it carries CR-space and access registers only)"; }

 private:
  std::unique_ptr<RemoteBusAccess> remote_;
};

}  // namespace

bool transports::remote_matches(std::string_view name, const DeviceOpenOptions& /*options*/) {
  // A malformed remote name is this transport's too: opening it says what is wrong.
  auto remote = parse_remote_device_name(name);
  return !remote || remote->has_value();
}

Result<Device> transports::open_remote(std::string_view name, const DeviceOpenOptions& options) {
  OF_ASSIGN(const std::optional<RemoteDeviceName> remote, parse_remote_device_name(name));
  if (!remote) return make_error(ErrorCode::Internal, std::string(name) + " is not a remote device name");
  return open_remote_device(name, *remote, options);
}

Result<Device> open_remote_device(std::string_view name, const RemoteDeviceName& remote,
                                  const DeviceOpenOptions& options) {
  SignalDeferral opening;  // from the start of the opening (fwops/Device.h)
  std::string device_name(name);
  // A name the protocol cannot carry fails here, before a connection (an ssh login) is made.
  if (auto valid = check_bus_device_name(remote.device); !valid)
    return make_error(std::move(valid).error().with_context(device_name));
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
    if (!connection) return make_error(std::move(connection).error().with_context(device_name + ": connecting"));
    // The device held on the server's host: O is asked again on this connection until the deadline.
    access = RemoteBusAccess::open(std::move(*connection), remote.device, reply_timeout, left());
    // The server full ("server busy", it hung up): a new connection once a session may have ended.
    if (access || access.error().code() != ErrorCode::Busy || left().count() == 0) break;
    std::this_thread::sleep_for(std::min(RemoteBusAccess::kBusyRetryInterval, left()));
  }
  if (!access) return make_error(std::move(access).error().with_context(device_name));
  auto transport = std::make_unique<RemoteDeviceTransport>(std::move(*access));
  OF_ASSIGN(const DeviceInfo* info, identify_device(transport->access(), device_name));
  // The running firmware (MGIR, through the server's register channel) is read on first use.
  return Device::over(std::move(opening), std::move(device_name), std::move(transport), *info);
}

}  // namespace openflint
