// Stop signals in process (core/Interrupt.h): the record, the sections, the default end where nothing
// is held, and a burn stopped at a chosen step — gateway and firmware update — leaving its locks free,
// the firmware's update handle released and the old image booting.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/Interrupt.h"
#include "core/SignalDeferral.h"
#include "core/TempPathRegistration.h"
#include "core/UninterruptibleSection.h"
#include "flash/FlashLock.h"
#include "fwops/burn/FailsafeBurner.h"
#include "fwops/burn/FirmwareBurn.h"
#include "sim/SimDevice.h"
#include "sim/SimRegisterPort.h"
#include "tests/support/LiveDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

TEST(StopSignal, IsRecordedWhileADeviceIsHeldAndSeenAtSafePoints) {
  const InterruptScope scope;
  const SignalDeferral held;
  EXPECT_FALSE(interrupted());
  EXPECT_TRUE(check_interrupted());
  ASSERT_EQ(::raise(SIGINT), 0);
  EXPECT_TRUE(interrupted());
  EXPECT_EQ(interrupt_signal(), SIGINT);
  const auto stop = check_interrupted();
  ASSERT_FALSE(stop);
  EXPECT_EQ(stop.error().code(), ErrorCode::Interrupted);
  EXPECT_EQ(stop.error().message(), "interrupted by SIGINT");
  {
    const UninterruptibleSection section;
    EXPECT_TRUE(check_interrupted()) << "a section's steps run on";
    ASSERT_EQ(::raise(SIGTERM), 0);  // a second signal during the cleanup: counted, the first one stands
  }
  EXPECT_FALSE(check_interrupted());
  EXPECT_EQ(interrupt_signal(), SIGINT);
  EXPECT_EQ(interrupt_count(), 2u);
}

TEST(StopSignal, ANewScopeStartsClean) {
  {
    const InterruptScope scope;
    const SignalDeferral held;
    ASSERT_EQ(::raise(SIGHUP), 0);
    EXPECT_EQ(interrupt_signal(), SIGHUP);
  }
  const InterruptScope again;
  EXPECT_FALSE(interrupted());
}

// Runs `body` in a forked child; its wait status.
template <typename Body>
int in_child(Body body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    body();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(StopSignal, EndsTheProcessAtOnceWhereNothingIsHeldAndRemovesTemporaries) {
  const TempDir dir;
  const std::string temp = (dir / "out.tmp-1").string();
  const int status = in_child([&] {
    const InterruptScope scope;
    const int fd = ::open(temp.c_str(), O_CREAT | O_WRONLY, 0600);
    ::close(fd);
    const TempPathRegistration registered(temp);
    ::raise(SIGTERM);
    ::_exit(3);  // not reached
  });
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_FALSE(std::filesystem::exists(temp));
}

TEST(StopSignal, AnIgnoredSignalStaysIgnored) {  // nohup
  const int status = in_child([] {
    ::signal(SIGHUP, SIG_IGN);
    const InterruptScope scope;
    const SignalDeferral held;
    ::raise(SIGHUP);
    ::_exit(interrupted() ? 1 : 0);
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "SIGHUP was ignored before: it must not stop the work";
}

std::uint16_t running_minor(const sim::SimDevice& d) {
  const auto& r = d.boot_state().running;
  return r && r->fw_version ? r->fw_version->minor : 0;
}

// A gateway burn stopped after `writes` progress reports of its writing stage.
TEST(StopSignal, AGatewayBurnStopsBetweenSectorsAndTheOldImageBoots) {
  auto dev = device_running("connectx4", read_file(sample_image("connectx4-old")));
  ASSERT_NE(dev, nullptr);
  const auto old_minor = running_minor(*dev);
  const auto image = read_file(sample_image("connectx4-new"));
  const InterruptScope scope;
  const SignalDeferral held;
  BurnOptions options;
  int writes = 0;
  options.progress = [&](const BurnProgress& p) {
    if (p.stage == "writing" && ++writes == 3) ::raise(SIGTERM);
  };
  auto burned = burn_image(*dev, dev->info(), image, options);
  ASSERT_FALSE(burned);
  EXPECT_EQ(burned.error().code(), ErrorCode::Interrupted);
  EXPECT_EQ(burned.error().message(), "interrupted by SIGTERM: the burn did not complete; the old image still boots");
  EXPECT_EQ(writes, 3) << "the burn went on past the safe point after the signal";
  auto lock = FlashLock::acquire(*dev, dev->info().flash_gateway, std::chrono::milliseconds(0));
  EXPECT_TRUE(lock) << "the flash lock was left held";
  dev->reset();
  EXPECT_EQ(running_minor(*dev), old_minor);
}

// Without failsafe the in-place write over a bootable image completes: stopping in it would
// leave nothing to boot.
TEST(StopSignal, ABurnWithoutFailsafeCompletesOnceItWrites) {
  auto dev = device_running("connectx4", read_file(sample_image("connectx4-old")));
  ASSERT_NE(dev, nullptr);
  const auto image = read_file(sample_image("connectx4-new"));
  const InterruptScope scope;
  const SignalDeferral held;
  BurnOptions options;
  options.failsafe = false;
  bool raised = false;
  options.progress = [&](const BurnProgress& p) {
    if (p.stage == "writing" && !raised) raised = ::raise(SIGINT) == 0;
  };
  auto burned = burn_image(*dev, dev->info(), image, options);
  ASSERT_TRUE(burned) << burned.error().message();
  EXPECT_TRUE(raised);
  EXPECT_TRUE(interrupted());
  dev->reset();
  EXPECT_NE(running_minor(*dev), 0);
  EXPECT_FALSE(dev->boot_state().recovery);
}

// The firmware's update, stopped during the download: cancelled, the handle released (the next
// update takes it at once), the old image boots.
TEST(StopSignal, AFirmwareUpdateIsCancelledAndItsHandleReleased) {
  auto dev = live_connectx4();
  sim::SimRegisterPort port(*dev);
  const auto image = mcc_fs3(29);
  {
    const InterruptScope scope;
    const SignalDeferral held;
    BurnOptions options;
    int writes = 0;
    options.progress = [&](const BurnProgress& p) {
      if (p.stage == "writing" && ++writes == 2) ::raise(SIGHUP);
    };
    auto burned = burn_through_firmware(port, *dev, dev->info(), image, options);
    ASSERT_FALSE(burned);
    EXPECT_EQ(burned.error().code(), ErrorCode::Interrupted);
    EXPECT_NE(burned.error().message().find("cancelled"), std::string::npos) << burned.error().message();
    EXPECT_EQ(dev->component_update().status().state, sim::UpdateState::Idle) << "the update handle is still held";
  }
  ComponentUpdateTimeouts no_wait;
  no_wait.lock = std::chrono::milliseconds(0);
  auto again = burn_through_firmware(port, *dev, dev->info(), image, {}, no_wait);
  ASSERT_TRUE(again) << again.error().message();
  dev->reset();
  EXPECT_EQ(running_minor(*dev), 29);
}

}  // namespace
}  // namespace openflint::test
