// WebOptions: what `mst web` serves and to whom — the listen address, the allowed client networks,
// the devices, read-only mode, the access token and the audit log.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fwops/Device.h"
#include "remote/BusSession.h"
#include "remote/ClientNetwork.h"
#include "web/FabricApiOptions.h"

namespace openflint {

struct WebOptions {
  std::string listen_address = "127.0.0.1";  // IPv4 or IPv6 literal
  std::uint16_t port = 0;                    // 0: any free port (WebServer::port() tells)
  // Clients allowed to connect; empty = any, accepted only on a loopback listen address.
  std::vector<ClientNetwork> allow;
  std::vector<std::string> devices;  // any device name the tools take
  DeviceOpenOptions open_options;    // sysfs root, lock timeout
  bool read_only = false;            // every write refused (403)
  std::string token;                 // empty: a random one (AccessToken)
  AuditLog audit;                    // one line per write (and per refused write); may be empty
  std::size_t max_request_bytes = 64 * 1024;  // larger bodies: 413
  // mst web --fabric: the Fabric page's endpoints (/api/fabric...); unset: none (404).
  std::optional<FabricApiOptions> fabric;
};

}  // namespace openflint
