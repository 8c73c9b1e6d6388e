// RemoteRegisterPort: access registers of a remote device's running firmware through openflint's bus-server extension (G).
#pragma once

#include <memory>

#include "mtcr/RegisterPort.h"
#include "mtcr/remote/RemoteBusAccess.h"

namespace openflint {

// Shares the RemoteBusAccess connection (one stream, requests in order). Only our `mst server`
// answers G; against mstmtserver open() fails with NotSupported (remembered by the access, so
// asking again costs no round trip).
class RemoteRegisterPort final : public RegisterPort {
 public:
  // Probes the channel (the bare G). `remote` must outlive the port.
  [[nodiscard]] static Result<std::unique_ptr<RemoteRegisterPort>> open(RemoteBusAccess& remote) {
    OF_ASSIGN(const std::size_t bytes, remote.register_channel());
    return std::unique_ptr<RemoteRegisterPort>(new RemoteRegisterPort(remote, bytes));
  }

  [[nodiscard]] Result<AccessRegisterTlv> transact(const AccessRegisterTlv& request) override {
    count_access();
    return remote_->access_register(request);
  }
  [[nodiscard]] Result<std::vector<AccessRegisterTlv>> transact_all(std::span<const AccessRegisterTlv> requests) override {
    for (std::size_t i = 0; i < requests.size(); ++i) count_access();
    return remote_->access_registers(requests);
  }
  // What the server's device port carries, bounded by what one G request holds.
  [[nodiscard]] std::size_t max_register_bytes() const override { return max_bytes_; }

 private:
  RemoteRegisterPort(RemoteBusAccess& remote, std::size_t max_bytes) : remote_(&remote), max_bytes_(max_bytes) {}

  RemoteBusAccess* remote_;
  std::size_t max_bytes_;
};

}  // namespace openflint
