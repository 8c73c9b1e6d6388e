// InbandFabricFixture: a fresh ibsim fabric per test with a responder on Hca2 and clients on Hca1.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <memory>

#include "inband/SimFabric.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

class InbandFabricFixture : public ::testing::Test {
 protected:
  static constexpr std::uint32_t kHwId = 0x0020d;  // ConnectX-5 hw id, revision 0

  void SetUp() override {
    for (const char* tool : {"ibsim", "opensm", "ibaddr"}) {
      if (!have_program(tool)) GTEST_SKIP() << tool << " is not installed (scripts/setup.sh installs it)";
    }
    auto fabric = SimFabric::start();
    ASSERT_TRUE(fabric) << fabric.error().message();
    fabric_ = std::move(*fabric);
    std::vector<std::string> argv{bin("ibsim-responder").string(), "--hw-id", std::to_string(kHwId), "--echo-registers"};
    const auto extra = responder_extra_args();
    argv.insert(argv.end(), extra.begin(), extra.end());
    auto pid = fabric_->start_responder("Hca2", argv);
    ASSERT_TRUE(pid) << pid.error().message();
    auto lid = fabric_->lid_of("Hca2");
    ASSERT_TRUE(lid) << lid.error().message();
    lid_ = *lid;
  }

  void TearDown() override {
    if (!fabric_) return;
    const auto pids = fabric_->pids();
    const auto dir = fabric_->dir();
    auto down = fabric_->shutdown();
    EXPECT_TRUE(down) << down.error().message();
    for (pid_t pid : pids) {
      errno = 0;
      EXPECT_TRUE(::kill(pid, 0) == -1 && errno == ESRCH) << "process " << pid << " is still alive";
    }
    fabric_.reset();
    EXPECT_FALSE(std::filesystem::exists(dir)) << dir << " was not removed";
  }

  // More arguments for the memory-mode responder on Hca2 (e.g. I2C EEPROMs).
  virtual std::vector<std::string> responder_extra_args() const { return {}; }

  // Runs mtcr-tool on Hca1 against `device`.
  CapturedRun tool(const std::string& device, std::vector<std::string> args) {
    std::vector<std::string> argv{bin("mtcr-tool").string(), "-d", device};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = fabric_->run("Hca1", argv);
    EXPECT_TRUE(r) << r.error().message();
    return r ? *r : CapturedRun{};
  }

  std::string lid_name() const { return "lid-" + std::to_string(lid_); }

  std::unique_ptr<SimFabric> fabric_;
  std::uint16_t lid_ = 0;
};

}  // namespace openflint::test
