// flint's raw flash commands on a live simulated ConnectX-4 (sim:PATH) whose firmware owns the flash: through the firmware (MFBA/MFBE), never the gateway.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "fwops/Device.h"
#include "sim/SimDevice.h"
#include "tests/support/LiveDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

constexpr std::uint32_t kSpare = 0x400000;  // past the board's copy, before the second slot

class RawFlashThroughFirmware : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dev = live_sim_connectx4(tmp_.path() / "cx4");
    ASSERT_TRUE(dev) << dev.error().message();
    ASSERT_TRUE(dev->commit());
    before_ = dev->simulator()->counters();
  }
  std::string dev() const { return "sim:" + (tmp_.path() / "cx4").string(); }
  CommandResult flint(std::vector<std::string> args) {
    args.insert(args.begin(), {"-d", dev()});
    return run_tool("flint", args);
  }
  // Opens the saved device (after a flint run) and hands it to `look`.
  template <typename F>
  void inspect(F look) {
    auto d = open_device(dev());
    ASSERT_TRUE(d) << d.error().message();
    look(*d->simulator());
  }
  std::vector<std::uint8_t> flash_at(std::uint32_t address, std::size_t n) {
    std::vector<std::uint8_t> out;
    inspect([&](sim::SimDevice& s) {
      const auto all = s.flash().contents();
      out.assign(all.begin() + address, all.begin() + address + static_cast<std::ptrdiff_t>(n));
    });
    return out;
  }
  // Since SetUp: no gateway command, no conflict, and every erase/program was the firmware's.
  void expect_through_firmware(const std::string& what, bool wrote) {
    inspect([&](sim::SimDevice& s) {
      const auto c = s.counters();
      EXPECT_EQ(c.gateway_commands, before_.gateway_commands) << what << " used the CR-space gateway";
      EXPECT_EQ(c.firmware.gateway_conflicts, 0u) << what;
      EXPECT_FALSE(s.boot_state().firmware_hung) << what;
      EXPECT_EQ(c.flash.erases - before_.flash.erases, c.firmware.flash_erases - before_.firmware.flash_erases) << what;
      EXPECT_EQ(c.flash.programs - before_.flash.programs, c.firmware.flash_programs - before_.firmware.flash_programs)
          << what;
      if (wrote) {
        EXPECT_GT(c.firmware.flash_programs + c.firmware.flash_erases, 0u) << what;
      }
    });
  }

  TempDir tmp_;
  sim::SimCounters before_;
};

TEST_F(RawFlashThroughFirmware, WwWbWbneAndEraseWriteThroughTheFirmware) {
  const auto ww = flint({"ww", "0x400100", "0x12345678"});
  ASSERT_EQ(ww.exit_code, 0) << ww.out << ww.err;
  EXPECT_EQ(flash_at(kSpare + 0x100, 4), (std::vector<std::uint8_t>{0x12, 0x34, 0x56, 0x78}));
  const auto block = random_bytes(0x1800, 21);  // a sector and a half, from mid-sector
  write_file(tmp_ / "block.bin", block);
  const auto wb = flint({"wb", (tmp_ / "block.bin").string(), "0x400800"});
  ASSERT_EQ(wb.exit_code, 0) << wb.out << wb.err;
  EXPECT_EQ(flash_at(kSpare + 0x800, block.size()), block);
  EXPECT_EQ(flash_at(kSpare + 0x100, 4), (std::vector<std::uint8_t>{0x12, 0x34, 0x56, 0x78}));  // kept
  const auto wbne = flint({"wbne", "0x402000", "8", "0xa5a5a5a5", "0x00ff00ff"});
  ASSERT_EQ(wbne.exit_code, 0) << wbne.out << wbne.err;
  EXPECT_EQ(flash_at(kSpare + 0x2000, 8), (std::vector<std::uint8_t>{0xa5, 0xa5, 0xa5, 0xa5, 0x00, 0xff, 0x00, 0xff}));
  const auto erase = flint({"erase", "0x400123"});
  ASSERT_EQ(erase.exit_code, 0) << erase.out << erase.err;
  EXPECT_EQ(flash_at(kSpare, 0x1000), std::vector<std::uint8_t>(0x1000, 0xff));
  EXPECT_EQ(flash_at(kSpare + 0x1000, 0x800), std::vector<std::uint8_t>(block.begin() + 0x800, block.begin() + 0x1000));
  expect_through_firmware("ww/wb/wbne/erase", true);
  const auto v = flint({"v"});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

TEST_F(RawFlashThroughFirmware, RiRbAndChecksumReadThroughTheFirmwareAsTheGatewayWould) {
  const auto ri = flint({"ri", (tmp_ / "fw.bin").string()});
  ASSERT_EQ(ri.exit_code, 0) << ri.out << ri.err;
  const auto rb = flint({"rb", "0x0", "0x3000", (tmp_ / "head.bin").string()});
  ASSERT_EQ(rb.exit_code, 0) << rb.out << rb.err;
  const auto sum = flint({"--json", "checksum"});
  ASSERT_EQ(sum.exit_code, 0) << sum.out << sum.err;
  expect_through_firmware("ri/rb/checksum", false);
  EXPECT_EQ(read_file(tmp_ / "head.bin"), flash_at(0, 0x3000));
  // The gateway (--ocr; reads do not disturb the firmware) reads the same.
  ASSERT_EQ(flint({"--ocr", "ri", (tmp_ / "fw-ocr.bin").string()}).exit_code, 0);
  EXPECT_EQ(read_file(tmp_ / "fw.bin"), read_file(tmp_ / "fw-ocr.bin"));
  const auto sum_ocr = flint({"--json", "--ocr", "checksum"});
  ASSERT_EQ(sum_ocr.exit_code, 0) << sum_ocr.out << sum_ocr.err;
  EXPECT_EQ(nlohmann::json::parse(sum.out)["checksum"], nlohmann::json::parse(sum_ocr.out)["checksum"]);
  inspect([&](sim::SimDevice& s) {
    EXPECT_GT(s.counters().gateway_commands, before_.gateway_commands);
    EXPECT_EQ(s.counters().firmware.gateway_conflicts, 0u);
  });
}

TEST_F(RawFlashThroughFirmware, SgAndSvRewriteTheDeviceDataThroughTheFirmware) {
  const auto sg = flint({"sg", "0x0002c90300b0b000", "0x0002c9b0b000"});
  ASSERT_EQ(sg.exit_code, 0) << sg.out << sg.err;
  const auto sv = flint({"sv", "through the firmware"});
  ASSERT_EQ(sv.exit_code, 0) << sv.out << sv.err;
  expect_through_firmware("sg/sv", true);
  const auto q = flint({"--json", "q"});
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  const auto doc = nlohmann::json::parse(q.out);
  EXPECT_EQ(doc["base_guid"]["base"], "0x0002c90300b0b000") << q.out;
  EXPECT_EQ(doc["device_vsd"], "through the firmware") << q.out;
}

TEST_F(RawFlashThroughFirmware, BbBurnsInPlaceThroughTheFirmware) {
  write_file(tmp_ / "new.bin", mcc_fs3(29));
  const auto bb = flint({"-i", (tmp_ / "new.bin").string(), "-y", "bb"});
  ASSERT_EQ(bb.exit_code, 0) << bb.out << bb.err;
  expect_through_firmware("bb", true);
  ASSERT_EQ(flint({"reset"}).exit_code, 0);
  inspect([&](sim::SimDevice& s) {
    ASSERT_FALSE(s.boot_state().recovery);
    ASSERT_TRUE(s.boot_state().running && s.boot_state().running->fw_version);
    EXPECT_EQ(s.boot_state().running->fw_version->minor, 29u);
    ASSERT_TRUE(s.boot_state().running->base_guid);
    EXPECT_EQ(s.boot_state().running->base_guid->base, kLiveBoardGuid);  // bb keeps the board's device data
  });
}

TEST_F(RawFlashThroughFirmware, OcrStillForcesTheGateway) {
  const auto ww = flint({"--ocr", "ww", "0x400100", "0x12345678"});
  ASSERT_EQ(ww.exit_code, 0) << ww.out << ww.err;
  inspect([&](sim::SimDevice& s) {
    EXPECT_GT(s.counters().gateway_commands, before_.gateway_commands);
    EXPECT_GT(s.counters().firmware.gateway_conflicts, 0u);  // written under the firmware
    EXPECT_TRUE(s.boot_state().firmware_hung);
  });
}

// wb is power-cut safe (journaled, docs/flash-writes.md) on this path too: a cut after any of
// the firmware's erases/programs, then a power cycle and the next flint run, leaves the old or
// the new sector contents — never a mix.
TEST_F(RawFlashThroughFirmware, APowerCutDuringWbLeavesTheOldOrTheNewSector) {
  const auto old_block = random_bytes(0x1000, 30), new_block = random_bytes(0x1000, 31);
  write_file(tmp_ / "old.bin", old_block);
  write_file(tmp_ / "new.bin", new_block);
  ASSERT_EQ(flint({"wb", (tmp_ / "old.bin").string(), "0x400000"}).exit_code, 0);
  int interrupted = 0;
  for (std::uint64_t cut : {1u, 3u, 8u, 20u, 40u, 60u}) {
    SCOPED_TRACE("power cut after " + std::to_string(cut) + " flash operations");
    {
      auto d = open_device(dev());
      ASSERT_TRUE(d) << d.error().message();
      sim::SimFaults f;
      f.power_cut_after_ops = cut;
      d->simulator()->set_faults(f);
      ASSERT_TRUE(d->commit());
    }
    const auto wb = flint({"wb", (tmp_ / "new.bin").string(), "0x400000"});
    {
      auto d = open_device(dev());
      ASSERT_TRUE(d) << d.error().message();
      d->simulator()->set_faults({});
      if (!d->simulator()->powered()) d->simulator()->power_cycle();
      ASSERT_TRUE(d->commit());
    }
    const auto rb = flint({"rb", "0x400000", "0x1000", (tmp_ / "now.bin").string()});  // finishes the journal first
    ASSERT_EQ(rb.exit_code, 0) << rb.out << rb.err;
    const auto now = read_file(tmp_ / "now.bin");
    EXPECT_TRUE(now == old_block || now == new_block) << "wb exit " << wb.exit_code << ": a mixed sector";
    if (wb.exit_code == 0) {
      EXPECT_EQ(now, new_block);
    } else {
      ++interrupted;
    }
    ASSERT_EQ(flint({"wb", (tmp_ / "old.bin").string(), "0x400000"}).exit_code, 0);  // start again from old
  }
  EXPECT_GE(interrupted, 4) << "the cuts did not fall inside the writes";
  expect_through_firmware("wb under power cuts", true);
}

}  // namespace
}  // namespace openflint::test
