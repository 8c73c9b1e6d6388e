// fwops/registers/RegisterDump and the catalog's CR-space layouts: every family's ranges are sane, a dump of
// every simulated model never reads a register whose read takes a lock (checked by a recording
// decorator), values are what the device holds, and a dump during a held flash lock leaves it held.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "devices/CrRegisterMap.h"
#include "devices/DeviceCatalog.h"
#include "fwops/registers/RegisterDump.h"
#include "sim/SimDevice.h"

namespace openflint::test {
namespace {

// Passes every access through to a SimDevice and records the addresses read.
class RecordingAccess final : public RegisterAccess {
 public:
  explicit RecordingAccess(RegisterAccess& inner, std::size_t block) : inner_(inner), block_(block) {}
  Result<std::uint32_t> read32(std::uint32_t address) override {
    reads.insert(address);
    return inner_.read32(address);
  }
  Result<void> write32(std::uint32_t address, std::uint32_t value) override {
    ++writes;
    return inner_.write32(address, value);
  }
  Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) override {
    EXPECT_LE(out.size(), block_) << "a block larger than max_block_dwords()";
    for (std::size_t i = 0; i < out.size(); ++i) reads.insert(address + static_cast<std::uint32_t>(4 * i));
    return inner_.read_block(address, out);
  }
  std::size_t max_block_dwords() const override { return block_; }

  std::set<std::uint32_t> reads;
  int writes = 0;

 private:
  RegisterAccess& inner_;
  std::size_t block_;
};

TEST(CrSpaceCatalog, EveryRecordHasASizeAndSaneRanges) {
  for (const DeviceInfo& info : all_devices()) {
    SCOPED_TRACE(std::string(info.name));
    const CrSpaceLayout& cr = info.cr_space;
    ASSERT_NE(cr.size, 0u);
    EXPECT_EQ(cr.size % 4, 0u);
    EXPECT_LT(info.hw_id_addr, cr.size);
    bool has_default = false, covers_hw_id = false;
    for (const DumpRange& r : cr.dump_ranges) {
      EXPECT_EQ(r.first % 4, 0u) << r.name;
      EXPECT_GT(r.dwords, 0u) << r.name;
      EXPECT_LE(std::uint64_t{r.first} + 4ull * r.dwords, cr.size) << r.name;
      EXPECT_FALSE(r.name.empty());
      has_default |= !r.full_only;
      covers_hw_id |= !r.full_only && r.first <= info.hw_id_addr && info.hw_id_addr < r.first + 4 * r.dwords;
    }
    EXPECT_TRUE(has_default);
    EXPECT_TRUE(covers_hw_id) << "the default dump must show the hw id";
    for (const CrRegister& reg : cr_registers(info)) {
      EXPECT_EQ(reg.address % 4, 0u) << reg.name;
      EXPECT_LT(reg.address, cr.size) << reg.name;
      for (const RegisterField& f : reg.fields) EXPECT_LE(f.lsb, f.msb) << reg.name << "." << f.name;
    }
  }
}

TEST(CrSpaceCatalog, LockRegistersAreMarkedFromTheGatewayRecord) {
  for (const DeviceInfo& info : all_devices()) {
    SCOPED_TRACE(std::string(info.name));
    const auto regs = cr_registers(info);
    const FlashGatewayInfo& gw = info.flash_gateway;
    if (gw.lock == FlashLockKind::Semaphore) {
      const CrRegister* sem = find_cr_register(regs, gw.semaphore_addr);
      ASSERT_NE(sem, nullptr);
      EXPECT_EQ(sem->read_effect, ReadEffect::TakesLock);
    }
    if (gw.is_spi_gateway()) {
      const CrRegister* cmd = find_cr_register(regs, gw.cmd_addr);
      ASSERT_NE(cmd, nullptr);
      EXPECT_EQ(cmd->name, "flash_gw.cmd");
      EXPECT_EQ(cmd->read_effect == ReadEffect::TakesLock, gw.lock == FlashLockKind::CmdBit31);
    }
    const CrRegister* hw = find_cr_register(regs, info.hw_id_addr);
    ASSERT_NE(hw, nullptr);
    EXPECT_EQ(hw->name, "hw_id");
  }
}

TEST(CrSpaceCatalog, FieldValueExtractsBits) {
  EXPECT_EQ(field_value({"hw_id", 15, 0}, 0x00a00209u), 0x209u);
  EXPECT_EQ(field_value({"rev", 23, 16}, 0x00a00209u), 0xa0u);
  EXPECT_EQ(field_value({"all", 31, 0}, 0xdeadbeefu), 0xdeadbeefu);
  EXPECT_EQ(field_value({"lock", 31, 31}, 0x80000000u), 1u);
}

// Every simulated model, default and --full, with a small and a large block size.
TEST(RegisterDump, NeverReadsALockRegisterOfAnySimulatedModel) {
  int models = 0;
  for (const DeviceInfo& info : all_devices()) {
    if (!info.flash_gateway.is_driven() || info.sim_model.empty() || info.default_flash_chip.empty()) continue;
    SCOPED_TRACE(std::string(info.name));
    auto dev = sim::SimDevice::create(info);
    ASSERT_TRUE(dev) << dev.error().message();
    ++models;
    std::set<std::uint32_t> locks;
    for (const CrRegister& r : cr_registers(info))
      if (r.read_effect == ReadEffect::TakesLock) locks.insert(r.address);
    for (bool full : {false, true}) {
      for (std::size_t block : {std::size_t{1}, std::size_t{56}, std::size_t{65536}}) {
        RecordingAccess rec(**dev, block);
        auto dump = dump_registers(rec, info, {.full = full});
        ASSERT_TRUE(dump) << dump.error().message();
        EXPECT_EQ(rec.writes, 0);
        for (std::uint32_t a : locks) EXPECT_EQ(rec.reads.count(a), 0u) << "read lock register " << a;
        EXPECT_EQ(rec.reads.size(), dump->words.size());
        EXPECT_FALSE((*dev)->gateway().locked()) << "the dump took the flash lock";
        for (std::size_t i = 1; i < dump->words.size(); ++i)
          ASSERT_LT(dump->words[i - 1].address, dump->words[i].address) << "not ascending / duplicated";
      }
    }
  }
  EXPECT_GE(models, 8);
}

TEST(RegisterDump, ValuesAreTheDevicesAndLockRegistersAreListedAsSkipped) {
  auto dev = sim::SimDevice::create("connectx4");
  ASSERT_TRUE(dev) << dev.error().message();
  for (std::uint32_t a = 0; a < 0x40; a += 4) ASSERT_TRUE((*dev)->write32(a, 0x11110000u + a));
  ASSERT_TRUE((*dev)->write32(0xf0404, 0x00123450u));  // gateway ADDR: a plain store
  auto dump = dump_registers(**dev, (*dev)->info());
  ASSERT_TRUE(dump) << dump.error().message();
  std::map<std::uint32_t, std::uint32_t> got;
  for (const DumpedWord& w : dump->words) got[w.address] = w.value;
  for (std::uint32_t a = 0; a < 0x40; a += 4) EXPECT_EQ(got.at(a), 0x11110000u + a);
  EXPECT_EQ(got.at(0xf0404), 0x00123450u);
  EXPECT_EQ(got.at(kHwIdAddr), 0x209u);
  EXPECT_EQ(got.count(0xf0400), 0u);
  std::set<std::string> skipped;
  for (const SkippedRegister& s : dump->skipped) skipped.insert(s.name);
  EXPECT_EQ(skipped, (std::set<std::string>{"flash_gw.cmd", "hw_semaphore"}));
}

TEST(RegisterDump, ADumpDuringABurnLeavesTheFlashLockAndCommandAlone) {
  for (const char* model : {"connectx3", "connectx4", "mt25204", "connectx7"}) {
    SCOPED_TRACE(model);
    auto dev = sim::SimDevice::create(model);
    ASSERT_TRUE(dev) << dev.error().message();
    const FlashGatewayInfo& gw = (*dev)->info().flash_gateway;
    (*dev)->gateway().set_locked(true);  // another agent is burning
    const std::uint32_t cmd_before = (*dev)->peek32(gw.cmd_addr);
    const auto commands = (*dev)->gateway().commands();
    auto dump = dump_registers(**dev, (*dev)->info(), {.full = true});
    ASSERT_TRUE(dump) << dump.error().message();
    EXPECT_TRUE((*dev)->gateway().locked());
    EXPECT_EQ((*dev)->peek32(gw.cmd_addr), cmd_before);
    EXPECT_EQ((*dev)->gateway().commands(), commands);
    (*dev)->gateway().set_locked(false);
    // And unlocked, a dump does not take it.
    ASSERT_TRUE(dump_registers(**dev, (*dev)->info(), {.full = true}));
    EXPECT_FALSE((*dev)->gateway().locked());
  }
}

TEST(RegisterDump, FullCoversTheDefaultRanges) {
  auto dev = sim::SimDevice::create("spectrum");
  ASSERT_TRUE(dev) << dev.error().message();
  auto small = dump_registers(**dev, (*dev)->info());
  auto full = dump_registers(**dev, (*dev)->info(), {.full = true});
  ASSERT_TRUE(small && full);
  EXPECT_GT(full->words.size(), small->words.size());
  std::set<std::uint32_t> in_full;
  for (const DumpedWord& w : full->words) in_full.insert(w.address);
  for (const DumpedWord& w : small->words) EXPECT_EQ(in_full.count(w.address), 1u) << w.address;
}

}  // namespace
}  // namespace openflint::test
