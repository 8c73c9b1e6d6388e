// InProcessWeb: web/WebServer serving on a free loopback port in a thread of the test, with an
// httplib client that has waited until it answers; stopped and joined on destruction.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "web/WebServer.h"

namespace openflint::test {

class InProcessWeb {
 public:
  InProcessWeb() = default;
  InProcessWeb(const InProcessWeb&) = delete;
  InProcessWeb& operator=(const InProcessWeb&) = delete;
  ~InProcessWeb() { stop(); }

  // Binds and serves; a failure to bind fails the test (check ready()).
  void start(WebOptions options) {
    auto server = WebServer::bind(std::move(options));
    ASSERT_TRUE(server.has_value()) << server.error().message();
    server_ = std::move(*server);
    thread_ = std::thread([this] { (void)server_->serve(); });
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
    client_->set_read_timeout(30, 0);
    for (int i = 0; i < 200 && !client_->Get("/"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  void stop() {
    if (server_) server_->stop();
    if (thread_.joinable()) thread_.join();
    server_.reset();
  }
  [[nodiscard]] bool ready() const { return server_ != nullptr; }
  [[nodiscard]] WebServer& server() { return *server_; }
  [[nodiscard]] httplib::Client& client() { return *client_; }
  [[nodiscard]] httplib::Headers with_token() const { return {{"X-Openflint-Token", server_->token()}}; }

 private:
  std::unique_ptr<WebServer> server_;
  std::thread thread_;
  std::unique_ptr<httplib::Client> client_;
};

}  // namespace openflint::test
