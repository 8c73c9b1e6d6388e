// The read-only server's write rule (remote/ReadOnlyWrites) on every simulated gateway kind: the
// flash driver reads through it (probe, lock, status, array reads), and an erase, a program and a
// plain CR-space write are refused with the flash unchanged.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "devices/DeviceCatalog.h"
#include "devices/FlashChip.h"
#include "flash/FlashDriver.h"
#include "remote/ReadOnlyWrites.h"
#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

// What a read-only session does to W requests (U is refused outright).
class ReadOnlyView final : public RegisterAccess {
 public:
  ReadOnlyView(RegisterAccess& inner, const FlashGatewayInfo& gateway) : inner_(inner), gateway_(gateway) {}

  Result<std::uint32_t> read32(std::uint32_t address) override { return inner_.read32(address); }
  Result<void> write32(std::uint32_t address, std::uint32_t value) override {
    if (auto allowed = check_read_only_write(inner_, gateway_, address, value); !allowed) {
      ++refused;
      return allowed;
    }
    ++allowed_writes;
    return inner_.write32(address, value);
  }
  Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) override {
    return inner_.read_block(address, out);
  }
  Result<void> write_block(std::uint32_t, std::span<const std::uint32_t>) override {
    return make_error(ErrorCode::PermissionDenied, "block write");
  }
  [[nodiscard]] std::size_t max_block_dwords() const override { return inner_.max_block_dwords(); }

  int allowed_writes = 0;
  int refused = 0;

 private:
  RegisterAccess& inner_;
  const FlashGatewayInfo& gateway_;
};

FlashTimeouts fast() {
  FlashTimeouts t;
  t.lock = std::chrono::milliseconds(50);
  t.write_in_progress = std::chrono::milliseconds(500);
  t.gateway_busy = std::chrono::milliseconds(100);
  return t;
}

// A simulated model and its flash part (nullptr: the catalog's default).
struct Part {
  const char* model;
  const char* chip;
};

void PrintTo(const Part& part, std::ostream* out) { *out << part.model; }

class ReadOnlyWrites : public ::testing::TestWithParam<Part> {};

TEST_P(ReadOnlyWrites, FlashReadsPassAndChangesAreRefused) {
  auto info = find_device_by_sim_model(GetParam().model);
  ASSERT_TRUE(info.has_value()) << GetParam().model;
  const FlashChip* chip = nullptr;
  if (GetParam().chip != nullptr) {
    auto named = find_flash_chip_by_name(GetParam().chip);
    ASSERT_TRUE(named.has_value()) << GetParam().chip;
    chip = *named;
  }
  auto created = sim::SimDevice::create(**info, chip);
  ASSERT_TRUE(created.has_value()) << created.error().message();
  sim::SimDevice& dev = **created;
  const FlashGatewayInfo& gateway = dev.info().flash_gateway;
  // Something to read: a pattern at 64 KiB, written without the rule.
  const std::vector<std::uint8_t> pattern = test::random_bytes(256, 7);
  {
    auto writer = FlashDriver::open(dev, gateway, fast());
    ASSERT_TRUE(writer.has_value()) << writer.error().message();
    ASSERT_TRUE(writer->erase_sector(0x20000).has_value());
    ASSERT_TRUE(writer->program(0x20000, pattern).has_value());
  }
  const std::vector<std::uint8_t> before(dev.flash().contents().begin(), dev.flash().contents().end());

  ReadOnlyView view(dev, gateway);
  {
    auto reader = FlashDriver::open(view, gateway, fast());  // lock, set-up, probe
    ASSERT_TRUE(reader.has_value()) << reader.error().message();
    auto read = reader->read(0x20000, pattern.size());
    ASSERT_TRUE(read.has_value()) << read.error().message();
    EXPECT_EQ(*read, pattern);
    EXPECT_EQ(view.refused, 0);
    const auto erase = reader->erase_sector(0x20000);
    ASSERT_FALSE(erase.has_value());
    EXPECT_EQ(erase.error().code(), ErrorCode::PermissionDenied) << erase.error().message();
    const std::vector<std::uint8_t> zeros(16, 0);
    const auto program = reader->program(0x20000, zeros);
    ASSERT_FALSE(program.has_value());
    EXPECT_EQ(program.error().code(), ErrorCode::PermissionDenied) << program.error().message();
    auto again = reader->read(0x20000, pattern.size());  // the refusals left the gateway usable
    ASSERT_TRUE(again.has_value()) << again.error().message();
    EXPECT_EQ(*again, pattern);
  }  // the lock is given back through the rule too
  EXPECT_GT(view.allowed_writes, 0);
  // A plain CR-space write (the hw-id register's neighbour, scratch space on every part).
  const auto plain = view.write32(0x20, 0x1);
  ASSERT_FALSE(plain.has_value());
  EXPECT_NE(plain.error().message().find("not part of reading the flash"), std::string::npos) << plain.error().message();
  const std::vector<std::uint8_t> after(dev.flash().contents().begin(), dev.flash().contents().end());
  EXPECT_TRUE(after == before) << "the flash changed under a read-only view";
  // The lock is free again: an unrestricted driver takes it at once.
  EXPECT_TRUE(FlashDriver::open(dev, gateway, fast()).has_value());
}

// Every gateway kind the simulator has: gen4 with the semaphore (ConnectX-3), gen5 with the CMD
// bit-31 lock (ConnectX-4), gen6 (ConnectX-7), the chip-select support register (SwitchX), the
// InfiniHost III Lx "special" style with a bank select, and the InfiniHost parallel gateway with
// an Intel (MT23108) and an AMD (MT25208) CFI part.
// (Small parts where the default is large: creating and comparing a 64 MiB flash costs seconds.)
INSTANTIATE_TEST_SUITE_P(Gateways, ReadOnlyWrites,
                         ::testing::Values(Part{"connectx3", "M25P16"}, Part{"connectx4", "M25P16"},
                                           Part{"connectx7", "N25Q128A"}, Part{"switchx", "M25P16"},
                                           Part{"mt25204", nullptr}, Part{"mt23108", nullptr}, Part{"mt25208", nullptr}),
                         [](const ::testing::TestParamInfo<Part>& p) { return std::string(p.param.model); });

TEST(ReadOnlyWritesRule, NamesWhyAWriteIsRefused) {
  auto created = sim::SimDevice::create("connectx4");
  ASSERT_TRUE(created.has_value()) << created.error().message();
  sim::SimDevice& dev = **created;
  const FlashGatewayInfo& g = dev.info().flash_gateway;
  const GatewayLayout& l = g.layout;
  const auto command = [&](std::uint8_t opcode, bool data_out) {
    std::uint32_t cmd = (1u << l.busy_bit) | (1u << l.cmd_phase_bit) | (std::uint32_t{opcode} << l.opcode_shift);
    if (data_out) cmd |= 1u << l.data_phase_bit;
    return cmd;
  };
  EXPECT_TRUE(check_read_only_write(dev, g, g.cmd_addr, command(0x9f, false)).has_value());
  EXPECT_TRUE(check_read_only_write(dev, g, g.cmd_addr, 0).has_value());  // the lock's release
  EXPECT_TRUE(check_read_only_write(dev, g, g.addr_addr, 0x123456).has_value());
  const auto wren = check_read_only_write(dev, g, g.cmd_addr, command(0x06, false));
  ASSERT_FALSE(wren.has_value());
  EXPECT_NE(wren.error().message().find("flash command 0x6 is not a read"), std::string::npos) << wren.error().message();
  // A read opcode with a data phase that sends is not a read either.
  const auto sends = check_read_only_write(dev, g, g.cmd_addr, command(0x03, true));
  ASSERT_FALSE(sends.has_value());
  EXPECT_NE(sends.error().message().find("sends data"), std::string::npos) << sends.error().message();
  EXPECT_FALSE(check_read_only_write(dev, g, g.data_addr, 0xdeadbeef).has_value());
}

}  // namespace
}  // namespace openflint
