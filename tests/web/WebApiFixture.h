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
#include "tests/web/InProcessWeb.h"
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
    web_.start(std::move(options));
    ASSERT_TRUE(web_.ready());
    server_ = &web_.server();
    client_ = &web_.client();
  }
  void stop() {
    web_.stop();
    server_ = nullptr;
    client_ = nullptr;
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
  InProcessWeb web_;
  WebServer* server_ = nullptr;        // web_'s, while it serves
  httplib::Client* client_ = nullptr;
  std::mutex mutex_;
  std::string audit_;
};

}  // namespace openflint::test
