// IbsimFabric: the base of every test that brings up a simulated InfiniBand fabric (ibsim, opensm,
// responders, fabricsim/SimFabric): skips when a program it needs is missing, starts the fabric, and
// on TearDown shuts it down and checks that none of its processes is left and its directory is gone.
// Header-only: the test folders that use it link openflint_fabricsim themselves (DEPENDS).
#pragma once

#include <signal.h>

#include <cerrno>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "fabric/FatTree.h"
#include "fabric/IbsimTopology.h"
#include "fabricsim/SimFabric.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

class IbsimFabricTest : public ::testing::Test {
 protected:
  // `programs`: every program the test runs; each missing one skips it (scripts/setup.sh installs them).
  explicit IbsimFabricTest(std::vector<std::string> programs = {"ibsim", "opensm"}) : programs_(std::move(programs)) {}

  // A derived SetUp calls this first and returns when IsSkipped().
  void SetUp() override {
    for (const auto& program : programs_) {
      if (!have_program(program)) GTEST_SKIP() << program << " is not installed (scripts/setup.sh installs it)";
    }
  }
  void TearDown() override { stop_fabric(); }

  // Starts the fabric into fabric_; a fatal failure when it does not come up (callers return on
  // HasFatalFailure(), or wrap the call in ASSERT_NO_FATAL_FAILURE).
  void start_fabric(const SimFabric::Options& options = {}) {
    auto fabric = SimFabric::start(options);
    ASSERT_TRUE(fabric) << fabric.error().message();
    fabric_ = std::move(*fabric);
  }

  // ibtopogen's default fat tree (2 spines, 4 leaves, 8 hosts) with the tools attached as `local_node`.
  void start_fat_tree(const std::string& local_node = "host-1") {
    auto tree = make_fat_tree(FatTreeSpec{});
    ASSERT_TRUE(tree) << tree.error().message();
    auto text = ibsim_topology_text(*tree);
    ASSERT_TRUE(text) << text.error().message();
    SimFabric::Options o;
    o.topology = *text;
    o.local_node = local_node;
    ASSERT_NO_FATAL_FAILURE(start_fabric(o));
  }

  // Shuts the fabric down (responders save their devices) and checks what it leaves behind.
  void stop_fabric() {
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

  // `argv` on `node` as a client of the fabric; a failure to run it is a test failure.
  CapturedRun run_on(const std::string& node, const std::vector<std::string>& argv, int timeout_ms) {
    auto r = fabric_->run(node, argv, timeout_ms);
    EXPECT_TRUE(r) << r.error().message();
    return r ? *r : CapturedRun{};
  }

  std::unique_ptr<SimFabric> fabric_;

 private:
  std::vector<std::string> programs_;
};

}  // namespace openflint::test
