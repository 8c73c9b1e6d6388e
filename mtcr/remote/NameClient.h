// NameClient: asking the ibadm name server (mtcr/remote/NameProtocol.h) which node a system name, GUID or LID is.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/KeyValueText.h"
#include "core/Result.h"
#include "mtcr/remote/BusConnection.h"
#include "mtcr/remote/NameProtocol.h"
#include "mtcr/remote/RemoteHost.h"

namespace openflint {

// Where the name server runs, and where that was read (for messages).
struct NameServerLocation {
  RemoteHost server;    // TCP
  std::string source;   // "OPENFLINT_NAME_SERVER", or the config file's path
};

// The name-server address of an ibadm.conf's settings (its key/value lines): name_server_address
// when given; else, when name_server = yes, name_server_listen (127.0.0.1 when not given or a
// wildcard) and name_server_port (kNameServerDefaultPort when not given); else nullopt. The one
// rule, used by the client below and by fabric/IbadmConfig. InvalidArgument "SOURCE:LINE: why"
// for a value that does not parse.
[[nodiscard]] Result<std::optional<RemoteHost>> name_server_address_of(const std::vector<KeyValueLine>& settings,
                                                                       std::string_view source);

// OPENFLINT_NAME_SERVER=HOST:PORT, else the ibadm.conf that OPENFLINT_IBADM_CONF names (else
// /etc/ibadm.conf, when it exists). nullopt: none configured. A config that cannot be read or
// parsed is its error.
[[nodiscard]] Result<std::optional<NameServerLocation>> find_name_server();

class NameClient {
 public:
  // Connects and checks V. Io/Timeout when the server cannot be reached; Io when it is not a name server.
  [[nodiscard]] static Result<NameClient> connect(const RemoteHost& server,
                                                  std::chrono::milliseconds timeout = std::chrono::seconds(5));

  // NotFound "no node named NAME" (or the server's reason: an ambiguous name is InvalidArgument).
  [[nodiscard]] Result<NameEntry> lookup(std::string_view name);
  [[nodiscard]] Result<NameEntry> query_guid(std::uint64_t guid);
  [[nodiscard]] Result<NameEntry> query_lid(std::uint16_t lid);
  [[nodiscard]] Result<std::vector<NameEntry>> list();
  // Sweeps again; the entries the server holds now.
  [[nodiscard]] Result<std::size_t> refresh(std::chrono::milliseconds timeout = std::chrono::seconds(300));

 private:
  explicit NameClient(BusConnection connection, std::string where)
      : connection_(std::move(connection)), where_(std::move(where)) {}
  [[nodiscard]] Result<std::string> ask(const NameRequest& request, std::chrono::milliseconds timeout);
  [[nodiscard]] Result<NameEntry> entry(const NameRequest& request);

  BusConnection connection_;
  std::string where_;  // "name server HOST:PORT", for messages
  std::chrono::milliseconds timeout_{5000};
};

}  // namespace openflint
