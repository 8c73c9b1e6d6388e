// SemaphoreLock (SMP 0xff53): query, lock, extend, release and lease expiry, also through the
// MAD handler and the simulated device's responder hooks.
#include <gtest/gtest.h>

#include <array>

#include "fabricsim/MadRequestHandler.h"
#include "fabricsim/MemoryCrSpace.h"
#include "fabricsim/SemaphoreLock.h"
#include "fabricsim/SimDeviceResponder.h"
#include "mtcr/inband/MadFormat.h"
#include "flash/FlashDriver.h"
#include "sim/SimDevice.h"
#include "tests/support/SyntheticImage.h"

namespace openflint {
namespace {

using namespace std::chrono_literals;
using Clock = SemaphoreLock::Clock;
using Data = std::array<std::uint8_t, mad::kSmpDataSize>;

// The SMP data of a request: semaphore address, op, key.
Data cmd(std::uint16_t address, std::uint8_t op, std::uint32_t key) {
  Data d{};
  mad::put32(d.data(), 4, (std::uint32_t{op} << 16) | address);
  mad::put32(d.data(), 8, key);
  return d;
}

// Sends one SET and returns the answered key (or the error).
Result<std::uint32_t> set(SemaphoreLock& lock, std::uint16_t address, std::uint8_t op, std::uint32_t key,
                          Clock::time_point now) {
  Data d = cmd(address, op, key);
  OF_TRY(lock.handle(true, d, now));
  return mad::get32(d.data(), 8);
}

TEST(SemaphoreLock, QueryReportsTheAddressesAndTheLease) {
  SemaphoreLock lock(7);
  Data d{};
  ASSERT_TRUE(lock.handle(false, d, Clock::now()));
  const std::uint32_t dword0 = mad::get32(d.data(), 0);
  EXPECT_EQ(dword0 & 0xff, 0x10u);         // semaphore_max_addr: > 0 means supported
  EXPECT_EQ((dword0 >> 16) & 0xff, 7u);     // lease_time_exponent
  EXPECT_EQ(dword0 >> 31, 1u);              // is_leaseable
  EXPECT_EQ(lock.lease(), 6400ms);          // 50 ms * 2^7
  EXPECT_EQ(mad::get32(d.data(), 8), 0u);  // a query locks nothing
}

TEST(SemaphoreLock, SecondLockerGetsNoKeyUntilRelease) {
  SemaphoreLock lock;
  const auto t0 = Clock::now();
  auto a = set(lock, 0x10, SemaphoreLock::kOpLock, 0, t0);
  ASSERT_TRUE(a);
  EXPECT_NE(*a, 0u);
  EXPECT_EQ(lock.holder(0x10, t0), *a);
  auto b = set(lock, 0x10, SemaphoreLock::kOpLock, 0, t0 + 1ms);
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, 0u);  // busy
  // The other semaphore (ICMD, 0) is independent.
  auto icmd = set(lock, 0, SemaphoreLock::kOpLock, 0, t0);
  ASSERT_TRUE(icmd);
  EXPECT_NE(*icmd, 0u);
  EXPECT_NE(*icmd, *a);
  // Release with someone else's key is refused; with the holder's it frees the semaphore.
  EXPECT_FALSE(set(lock, 0x10, SemaphoreLock::kOpRelease, *a + 1, t0));
  auto released = set(lock, 0x10, SemaphoreLock::kOpRelease, *a, t0 + 2ms);
  ASSERT_TRUE(released);
  EXPECT_EQ(*released, 0u);
  EXPECT_EQ(lock.holder(0x10, t0 + 2ms), 0u);
  auto c = set(lock, 0x10, SemaphoreLock::kOpLock, 0, t0 + 3ms);
  ASSERT_TRUE(c);
  EXPECT_NE(*c, 0u);
}

TEST(SemaphoreLock, ExtendKeepsTheLeaseAliveAndExpiryFreesIt) {
  SemaphoreLock lock(1);  // 100 ms leases
  const auto t0 = Clock::now();
  auto key = set(lock, 0x10, SemaphoreLock::kOpLock, 0, t0);
  ASSERT_TRUE(key);
  // Extended at 80 ms, it still holds at 150 ms (past the first lease).
  auto ext = set(lock, 0x10, SemaphoreLock::kOpExtend, *key, t0 + 80ms);
  ASSERT_TRUE(ext);
  EXPECT_EQ(*ext, *key);
  EXPECT_EQ(lock.holder(0x10, t0 + 150ms), *key);
  auto busy = set(lock, 0x10, SemaphoreLock::kOpLock, 0, t0 + 150ms);
  ASSERT_TRUE(busy);
  EXPECT_EQ(*busy, 0u);
  // A wrong key does not extend.
  auto wrong = set(lock, 0x10, SemaphoreLock::kOpExtend, *key ^ 1, t0 + 150ms);
  ASSERT_TRUE(wrong);
  EXPECT_EQ(*wrong, 0u);
  // Not extended again: free after 180 ms, the next tool locks it, the old key extends nothing.
  EXPECT_EQ(lock.holder(0x10, t0 + 181ms), 0u);
  auto next = set(lock, 0x10, SemaphoreLock::kOpLock, 0, t0 + 181ms);
  ASSERT_TRUE(next);
  EXPECT_NE(*next, 0u);
  EXPECT_NE(*next, *key);
  auto stale = set(lock, 0x10, SemaphoreLock::kOpExtend, *key, t0 + 182ms);
  ASSERT_TRUE(stale);
  EXPECT_EQ(*stale, 0u);
}

TEST(SemaphoreLock, BadAddressesAndOpsAreInvalid) {
  SemaphoreLock lock;
  EXPECT_FALSE(set(lock, 0x11, SemaphoreLock::kOpLock, 0, Clock::now()));
  EXPECT_FALSE(set(lock, 0x10, 0, 0, Clock::now()));
  std::array<std::uint8_t, 8> short_data{};
  EXPECT_FALSE(lock.handle(false, short_data, Clock::now()));
}

using Mad = std::array<std::uint8_t, mad::kMadSize>;

Mad smp(std::uint8_t method, const Data& data) {
  Mad m{};
  m[mad::kOffBaseVersion] = 1;
  m[mad::kOffClass] = mad::kClassSmpLid;
  m[mad::kOffClassVersion] = 1;
  m[mad::kOffMethod] = method;
  mad::put16(m.data(), mad::kOffAttrId, mad::kAttrSemaphoreLockSmp);
  std::copy(data.begin(), data.end(), m.begin() + mad::kOffSmpData);
  return m;
}

TEST(SemaphoreLockMad, SimulatedConnectX4AnswersAndConnectX3DoesNot) {
  MemoryCrSpace memory(1u << 20, 0x209);
  // Without the hook (plain CR-space, or a device without the lock): unsupported, as before.
  MadRequestHandler bare(memory, ResponderHooks{});
  Mad q = smp(mad::kMethodGet, Data{});
  EXPECT_EQ(bare.handle(q)->status, mad::kStatusAttrUnsupported);

  auto cx4 = sim::SimDevice::create("connectx4");
  ASSERT_TRUE(cx4) << cx4.error().message();
  auto responder = SimDeviceResponder::wrap(std::move(*cx4), {});
  MadRequestHandler handler(responder->backend(), responder->hooks());
  // A blank flash: flash recovery, no firmware, no lock.
  Mad recovery = smp(mad::kMethodGet, Data{});
  EXPECT_EQ(handler.handle(recovery)->status, mad::kStatusAttrUnsupported);

  // With firmware running (an image on flash, a power cycle): the lock answers.
  {
    sim::SimDevice& dev = responder->device();
    auto driver = FlashDriver::open(dev, dev.info().flash_gateway);
    ASSERT_TRUE(driver) << driver.error().message();
    test::SyntheticSpec spec;
    spec.hw_id = 0x209;
    ASSERT_TRUE(driver->write_sectors_that_differ(0, test::build_fs3(spec).bytes));
    dev.power_cycle();
    ASSERT_FALSE(dev.boot_state().recovery);
  }
  Mad query = smp(mad::kMethodGet, Data{});
  ASSERT_EQ(handler.handle(query)->status, 0);
  EXPECT_EQ(mad::get32(query.data(), mad::kOffSmpData) & 0xff, 0x10u);
  Mad lock = smp(mad::kMethodSet, cmd(0x10, SemaphoreLock::kOpLock, 0));
  ASSERT_EQ(handler.handle(lock)->status, 0);
  const std::uint32_t key = mad::get32(lock.data(), mad::kOffSmpData + 8);
  EXPECT_NE(key, 0u);
  Mad again = smp(mad::kMethodSet, cmd(0x10, SemaphoreLock::kOpLock, 0));
  ASSERT_EQ(handler.handle(again)->status, 0);
  EXPECT_EQ(mad::get32(again.data(), mad::kOffSmpData + 8), 0u);  // held: no key
  Mad wrong = smp(mad::kMethodSet, cmd(0x10, SemaphoreLock::kOpRelease, key + 1));
  EXPECT_EQ(handler.handle(wrong)->status, mad::kStatusInvalidValue);

  auto cx3 = sim::SimDevice::create("connectx3");
  ASSERT_TRUE(cx3) << cx3.error().message();
  auto old = SimDeviceResponder::wrap(std::move(*cx3), {});
  EXPECT_FALSE(old->hooks().semaphore_lock);  // its firmware has no such MAD
  EXPECT_TRUE(responder->hooks().semaphore_lock);
}

}  // namespace
}  // namespace openflint
