// ExtPortAccess I2C (vendor attribute 0x13): the in-band client and the responder's handler on MAD
// bytes, over memory EEPROMs — round trips, NACK (Busy) mapping, size limits, absent buses and ports.
#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <vector>

#include "fabricsim/MadRequestHandler.h"
#include "fabricsim/MemoryCrSpace.h"
#include "fabricsim/MemoryI2cBus.h"
#include "mtcr/inband/InbandI2cAccess.h"
#include "mtcr/inband/MadFormat.h"
#include "mtcr/inband/MadReply.h"

namespace openflint {
namespace {

using Mad = std::array<std::uint8_t, mad::kMadSize>;

// What InbandAccess::vendor_access puts on the wire and checks on the way back, with the
// responder's handler in place of the fabric; the last request and answer are kept.
class Wire {
 public:
  explicit Wire(ResponderHooks hooks) : handler_(memory_, std::move(hooks)) {}

  InbandI2cAccess::Exchange exchange() {
    return [this](std::uint8_t method, std::uint32_t attr_mod, std::span<const std::uint8_t> data)
               -> Result<std::vector<std::uint8_t>> {
      ++sent;
      Mad m{};
      m[mad::kOffBaseVersion] = 1;
      m[mad::kOffClass] = mad::kClassVendorA;
      m[mad::kOffClassVersion] = 1;
      m[mad::kOffMethod] = method;
      mad::put64(m.data(), mad::kOffTid, ++tid_);
      mad::put16(m.data(), mad::kOffAttrId, mad::kAttrExtPortAccess);
      mad::put32(m.data(), mad::kOffAttrMod, attr_mod);
      mad::put64(m.data(), mad::kOffVendorData, 0x1122334455667788ull);
      std::copy(data.begin(), data.end(), m.begin() + mad::kOffVendorData + mad::kCrKeySize);
      request = m;
      if (!handler_.handle(m)) return make_error(ErrorCode::Timeout, "no answer");
      answer = m;
      OF_ASSIGN(const ReplyKind kind, classify_reply(m, 0, tid_, mad::kClassVendorA));
      if (kind != ReplyKind::Answer) return make_error(ErrorCode::Io, "not an answer");
      return reply_payload(m, mad::kOffVendorData + mad::kCrKeySize, 192);  // as under umad2sim
    };
  }

  int sent = 0;
  Mad request{};
  Mad answer{};

 private:
  MemoryCrSpace memory_{4096, 0x5a44};
  MadRequestHandler handler_;
  std::uint32_t tid_ = 0;
};

ResponderHooks hooks_for(I2cAccess* bus) {
  ResponderHooks hooks;
  hooks.i2c_bus = [bus] { return bus; };
  return hooks;
}

class ExtPortAccessTest : public ::testing::Test {
 protected:
  ExtPortAccessTest() {
    bus_.add_device(0x56, 4096);
    bus_.add_device(0x57, 256);
  }
  MemoryI2cBus bus_{2};  // each write is followed by two refused transactions
  Wire wire_{hooks_for(&bus_)};
  InbandI2cAccess i2c_{wire_.exchange()};
};

std::vector<std::uint8_t> pattern(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> v(n);
  std::iota(v.begin(), v.end(), seed);
  return v;
}

TEST_F(ExtPortAccessTest, RequestLayoutIsKeySizeDeviceOffsetData) {
  const auto data = pattern(4, 0xa0);
  ASSERT_TRUE(i2c_.write(0x56, 0x30, data));
  const Mad& m = wire_.request;
  EXPECT_EQ(m[mad::kOffClass], 0x0a);
  EXPECT_EQ(m[mad::kOffMethod], mad::kMethodSet);
  EXPECT_EQ(mad::get16(m.data(), mad::kOffAttrId), 0x13);
  EXPECT_EQ(mad::get32(m.data(), mad::kOffAttrMod), 2u);  // I2C port #1
  EXPECT_EQ(mad::get64(m.data(), 24), 0x1122334455667788ull);
  EXPECT_EQ(mad::get32(m.data(), 32), 4u);     // size in bytes
  EXPECT_EQ(mad::get32(m.data(), 36), 0x56u);  // device
  EXPECT_EQ(mad::get32(m.data(), 40), 0x30u);  // memory offset
  EXPECT_EQ(mad::get32(m.data(), 44), 0xa0a1a2a3u);
  EXPECT_EQ(wire_.answer[mad::kOffMethod], mad::kMethodSet | mad::kResponseBit);
  EXPECT_EQ(mad::get16(wire_.answer.data(), mad::kOffStatus), 0);
  EXPECT_EQ(bus_.contents(0x56)[0x30], 0xa0);
  EXPECT_EQ(bus_.contents(0x56)[0x33], 0xa3);
}

TEST_F(ExtPortAccessTest, WritesReadBackAfterTheWriteCycleOnEachDevice) {
  const auto a = pattern(64, 1);
  const auto b = pattern(17, 100);
  ASSERT_TRUE(i2c_.write(0x56, 0x40, a));
  std::vector<std::uint8_t> got(64);
  // The write cycle: two refusals, each ErrorCode::Busy through the MAD status, then the data.
  for (int i = 0; i < 2; ++i) {
    auto r = i2c_.read(0x56, 0x40, got);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code(), ErrorCode::Busy) << r.error().message();
    EXPECT_EQ(mad::get16(wire_.answer.data(), mad::kOffStatus), mad::kStatusI2cNack);
  }
  ASSERT_TRUE(i2c_.read(0x56, 0x40, got));
  EXPECT_EQ(got, a);
  // The other EEPROM is a separate device: untouched, and not in a write cycle.
  std::vector<std::uint8_t> other(17);
  ASSERT_TRUE(i2c_.read(0x57, 0x40, other));
  EXPECT_EQ(other, std::vector<std::uint8_t>(17, 0xff));
  ASSERT_TRUE(i2c_.write(0x57, 0xef, b));
  while (!i2c_.read(0x57, 0xef, other)) {
  }
  EXPECT_EQ(other, b);
  EXPECT_EQ(bus_.nacks(), 4u);
  EXPECT_EQ(std::vector<std::uint8_t>(bus_.contents(0x56).begin() + 0x40, bus_.contents(0x56).begin() + 0x80), a);
}

TEST_F(ExtPortAccessTest, AnAbsentDeviceIsBusyAndAnAccessPastTheEndIsInvalid) {
  std::vector<std::uint8_t> got(8);
  auto r = i2c_.read(0x50, 0, got);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::Busy);
  EXPECT_NE(r.error().message().find("i2c device 0x50"), std::string::npos) << r.error().message();
  r = i2c_.read(0x57, 250, got);  // 256-byte device
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(mad::get16(wire_.answer.data(), mad::kOffStatus), mad::kStatusInvalidValue);
}

TEST_F(ExtPortAccessTest, TheClientRefusesOversizeAndWideAddressesWithoutSending) {
  EXPECT_EQ(i2c_.max_transfer(), 64u);
  EXPECT_TRUE(i2c_.costly_access());
  std::vector<std::uint8_t> big(65);
  auto r = i2c_.write(0x56, 0, big);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::InvalidArgument);
  r = i2c_.read(0x80, 0, std::span(big).first(4));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(wire_.sent, 0);
}

TEST_F(ExtPortAccessTest, TheResponderRefusesSizesPastTheDataAreaOrTheBus) {
  // Requests another client could send: 213 bytes (past the 212 after key and header), 100
  // (past this bus's 64), a 9-bit device address. None reaches the bus.
  MemoryI2cBus small(0, 64);
  small.add_device(0x56, 256);
  for (const auto& [size, device] : {std::pair{213u, 0x56u}, std::pair{100u, 0x56u}, std::pair{4u, 0x156u}}) {
    Mad m{};
    m[mad::kOffBaseVersion] = 1;
    m[mad::kOffClass] = mad::kClassVendorA;
    m[mad::kOffClassVersion] = 1;
    m[mad::kOffMethod] = mad::kMethodSet;
    mad::put16(m.data(), mad::kOffAttrId, mad::kAttrExtPortAccess);
    mad::put32(m.data(), mad::kOffAttrMod, mad::kExtPortI2c1);
    mad::put32(m.data(), 32, size);
    mad::put32(m.data(), 36, device);
    MemoryCrSpace memory(4096, 0x5a44);
    MadRequestHandler handler(memory, hooks_for(&small));
    const auto a = handler.handle(m);
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->status, mad::kStatusInvalidValue) << size << " bytes to " << device;
  }
  EXPECT_EQ(small.contents(0x56)[0], 0xff);
  EXPECT_EQ(small.nacks(), 0u);
  static_assert(mad::kI2cMaxData == 212);
}

TEST(ExtPortAccess, NoBusOrAnotherPortIsUnsupported) {
  Wire none{ResponderHooks{}};
  InbandI2cAccess i2c{none.exchange()};
  std::vector<std::uint8_t> got(4);
  auto r = i2c.read(0x56, 0, got);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::NotSupported) << r.error().message();
  // CPU, I2C #2 and GPIO exist but are not modelled; port 9 does not exist.
  MemoryI2cBus bus;
  Wire wire{hooks_for(&bus)};
  auto send = wire.exchange();
  for (std::uint32_t port : {1u, 3u, 4u}) {
    auto a = send(mad::kMethodGet, port, std::vector<std::uint8_t>(12));
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error().code(), ErrorCode::NotSupported) << port;
  }
  auto a = send(mad::kMethodGet, 9, std::vector<std::uint8_t>(12));
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code(), ErrorCode::InvalidArgument);
}

// A bus whose transactions fail for another reason than a NACK.
class BrokenBus final : public I2cAccess {
 public:
  Result<void> read(std::uint8_t, std::uint32_t, std::span<std::uint8_t>) override {
    return make_error(ErrorCode::Io, "arbitration lost");
  }
  Result<void> write(std::uint8_t, std::uint32_t, std::span<const std::uint8_t>) override {
    return make_error(ErrorCode::Io, "arbitration lost");
  }
  std::size_t max_transfer() const override { return 64; }
};

TEST(ExtPortAccess, OtherBusErrorsAreIoNotBusy) {
  BrokenBus bus;
  Wire wire{hooks_for(&bus)};
  InbandI2cAccess i2c{wire.exchange()};
  std::vector<std::uint8_t> got(4);
  auto r = i2c.read(0x56, 0, got);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::Io);
  EXPECT_EQ(mad::get16(wire.answer.data(), mad::kOffStatus), mad::kStatusI2cFailed);
  EXPECT_NE(r.error().message().find("i2c transaction failed"), std::string::npos) << r.error().message();
}

}  // namespace
}  // namespace openflint
