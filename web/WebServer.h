// WebServer: `mst web`'s HTTP server (cpp-httplib) — the pages (web/assets, compiled in), the JSON
// endpoints (DeviceApi) and, before every handler, RequestGuard's checks and the client allow-list.
#pragma once

#include <memory>
#include <string>

#include "core/Result.h"
#include "web/WebOptions.h"

namespace openflint {

class WebServer {
 public:
  // Binds the listen address (refused, InvalidArgument, when it is not loopback and no --allow
  // names the clients; Io when the port is taken). Does not serve yet.
  [[nodiscard]] static Result<std::unique_ptr<WebServer>> bind(WebOptions options);
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  [[nodiscard]] int port() const;
  [[nodiscard]] const std::string& token() const;
  // http://ADDR:PORT/?token=TOKEN (an IPv6 address in brackets).
  [[nodiscard]] std::string url() const;
  // Serves until stop(); Io when the listening socket fails.
  [[nodiscard]] Result<void> serve();
  // From any thread: serve() returns once the requests in progress end.
  void stop();

 private:
  struct State;
  explicit WebServer(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace openflint
