// The fixture of mst web's in-process API tests: a ConnectX-4, a ConnectX-3 and an InfiniScale III
// simulated (old firmware), web/WebServer serving them on a free loopback port, an httplib client
// and the audit lines.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>

#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/TestSupport.h"
#include "web/WebServer.h"

namespace openflint::test {

class WebApiFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* model : {"connectx4", "connectx3", "mt47396"}) {  // the last: InfiniScale III, FS1 in I2C EEPROMs
      const auto dev = (dir_ / model).string();
      const auto r = run_tool("hcasim", {"create", "--model", model, dev, "--image",
                                         sample_image(std::string(model) + "-old").string()});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      devices_.push_back("sim:" + dev);
    }
  }
  void TearDown() override { stop(); }

  void start(bool read_only = false) {
    WebOptions options;
    options.devices = devices_;
    options.read_only = read_only;
    options.audit = [this](std::string_view line) {
      const std::lock_guard lock(mutex_);
      audit_ += std::string(line) + "\n";
    };
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
  httplib::Headers with_token() const { return {{"X-Openflint-Token", server_->token()}}; }
  nlohmann::json get_json(const std::string& path) {
    auto res = client_->Get(path.c_str(), with_token());
    EXPECT_TRUE(res) << path;
    if (!res) return nlohmann::json();
    EXPECT_EQ(res->status, 200) << path << ": " << res->body;
    return nlohmann::json::parse(res->body, nullptr, false);
  }
  httplib::Result post_field(const std::string& body, httplib::Headers headers) {
    return client_->Post("/api/devices/0/field", headers, body, "application/json");
  }
  std::string audit() {
    const std::lock_guard lock(mutex_);
    return audit_;
  }

  TempDir dir_;
  std::vector<std::string> devices_;
  std::unique_ptr<WebServer> server_;
  std::thread thread_;
  std::unique_ptr<httplib::Client> client_;
  std::mutex mutex_;
  std::string audit_;
};

}  // namespace openflint::test
