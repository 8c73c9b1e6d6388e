// InbandFabricFixture: a fresh ibsim fabric per test with a responder on Hca2 and clients on Hca1.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <memory>

#include "fabricsim/SimFabric.h"
#include "tests/support/IbsimFabric.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

class InbandFabricFixture : public IbsimFabricTest {
 protected:
  InbandFabricFixture() : IbsimFabricTest({"ibsim", "opensm", "ibaddr"}) {}

  static constexpr std::uint32_t kHwId = 0x0020d;  // ConnectX-5 hw id, revision 0

  void SetUp() override {
    IbsimFabricTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_NO_FATAL_FAILURE(start_fabric());
    std::vector<std::string> argv{bin("ibsim-responder").string(), "--hw-id", std::to_string(kHwId), "--echo-registers"};
    const auto extra = responder_extra_args();
    argv.insert(argv.end(), extra.begin(), extra.end());
    auto pid = fabric_->start_responder("Hca2", argv);
    ASSERT_TRUE(pid) << pid.error().message();
    auto lid = fabric_->lid_of("Hca2");
    ASSERT_TRUE(lid) << lid.error().message();
    lid_ = *lid;
  }

  // More arguments for the memory-mode responder on Hca2 (e.g. I2C EEPROMs).
  virtual std::vector<std::string> responder_extra_args() const { return {}; }

  // Runs mtcr-tool on Hca1 against `device`.
  CapturedRun tool(const std::string& device, std::vector<std::string> args) {
    std::vector<std::string> argv{bin("mtcr-tool").string(), "-d", device};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_on("Hca1", argv, 60000);
  }

  std::string lid_name() const { return "lid-" + std::to_string(lid_); }

  std::uint16_t lid_ = 0;
};

}  // namespace openflint::test
