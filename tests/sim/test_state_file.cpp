// SimStateFile / load_state: wrong JSON types, out-of-range numbers, missing keys and absurd sizes.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "sim/SimDevice.h"
#include "sim/SimStateFile.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ResultMatchers.h"

namespace openflint::sim {
namespace {

using nlohmann::json;

// A valid state.json of a fresh device, as a JSON value to edit.
json saved_state(const test::TempDir& dir) {
  auto dev = std::move(SimDevice::create("connectx4")).value();
  EXPECT_TRUE(dev->save_state(dir.path()).has_value());
  return json::parse(std::ifstream(dir.path() / "state.json"));
}

void write_state(const test::TempDir& dir, const json& j) {
  std::ofstream(dir.path() / "state.json", std::ios::trunc) << j.dump();
}

// Loading `j` fails with InvalidImage and a message naming `field`.
void expect_rejected(const test::TempDir& dir, const json& j, const std::string& field) {
  write_state(dir, j);
  auto loaded = SimDevice::load_state(dir.path());
  ASSERT_FALSE(loaded.has_value()) << field;
  EXPECT_EQ(loaded.error().code(), ErrorCode::InvalidImage) << loaded.error().message();
  EXPECT_NE(loaded.error().message().find(field), std::string::npos) << loaded.error().message();
}

TEST(SimStateFile, WrongJsonTypesAreErrorsNotExceptions) {
  test::TempDir dir;
  const json good = saved_state(dir);
  struct Case {
    const char* pointer;
    json value;
    const char* field;
  };
  const Case cases[] = {
      {"/powered", "yes", "powered: must be true or false"},
      {"/flash_locked", 1, "flash_locked"},
      {"/temperature_c", -3, "temperature_c"},
      {"/model", 4, "model: must be a string"},
      {"/faults/power_cut_after_ops", "7", "faults.power_cut_after_ops"},
      {"/faults/flash_busy_polls", 4294967296ull, "faults.flash_busy_polls"},  // > uint32
      {"/counters/erases", -1, "counters.erases"},
      {"/counters/reads", 1.5, "counters.reads"},
      {"/counters", "none", "counters: must be an object"},
      {"/boot/recovery", "no", "boot.recovery"},
      {"/boot/pci_device_id", 70000, "boot.pci_device_id"},  // > uint16
      {"/boot/running", json::object({{"format", "FS3"}, {"fw_version", {12, "x", 1}}}),
       "boot.running.fw_version[1]"},
      {"/boot/running", json::object({{"fw_version", {12, 1}}}), "boot.running.fw_version"},
      {"/boot/running", json::object({{"format", "FS9"}}), "boot.running.format"},
      {"/boot/running", json::object({{"base_guid", json::object({{"base", "0x1"}})}}),
       "boot.running.base_guid.base"},
      {"/boot/running", json::object({{"security_version", 1e300}}), "boot.running.security_version"},
      {"/boot", json::array(), "boot: must be an object"},
      {"/registers", json::array({1}), "registers"},
      {"/registers/983060", "0x209", "registers.983060"},
      {"/registers/0x10", 1, "'0x10' is not a decimal"},
  };
  for (const Case& c : cases) {
    json j = good;
    j[json::json_pointer(c.pointer)] = c.value;
    expect_rejected(dir, j, c.field);
  }
}

TEST(SimStateFile, MissingKeysTakeDefaults) {
  test::TempDir dir;
  json j = saved_state(dir);
  for (const char* key : {"powered", "flash_locked", "faults", "counters", "registers", "boot"}) j.erase(key);
  write_state(dir, j);
  auto loaded = SimDevice::load_state(dir.path());
  ASSERT_THAT(loaded, test::IsOk());
  EXPECT_TRUE((*loaded)->powered());
  EXPECT_EQ((*loaded)->counters().flash.erases, 0u);
  EXPECT_TRUE((*loaded)->boot_state().recovery);  // a blank flash boots into recovery
}

TEST(SimStateFile, RoundTripKeepsEveryField) {
  SimStateFile s;
  s.model = "spectrum";
  s.flash_chip = "N25Q032A";
  s.powered = false;
  s.flash_locked = true;
  s.faults.power_cut_after_ops = 3;
  s.faults.flash_stuck_busy = true;
  s.counters.flash.bytes_programmed = 1ull << 40;
  s.registers = {{0xf0014, 0x24e}, {0xffffffffu, 0xffffffffu}};
  BootState boot;
  boot.recovery = false;
  boot.booted_address = 0x800000;
  ImageQuery q;
  q.format = ImageFormat::Fs4;
  q.fw_version = FwVersion{13, 2000, 65535};
  q.base_guid = UidRange{0x0002c90300000000ull, 8};
  boot.running = q;
  s.boot = boot;
  auto back = SimStateFile::parse(s.to_json());
  ASSERT_THAT(back, test::IsOk());
  EXPECT_EQ(back->model, "spectrum");
  EXPECT_FALSE(back->powered);
  EXPECT_TRUE(back->flash_locked);
  EXPECT_EQ(back->faults.power_cut_after_ops, 3u);
  EXPECT_TRUE(back->faults.flash_stuck_busy);
  EXPECT_EQ(back->counters.flash.bytes_programmed, 1ull << 40);
  EXPECT_EQ(back->registers, s.registers);
  ASSERT_TRUE(back->boot && back->boot->running);
  EXPECT_EQ(back->boot->running->format, ImageFormat::Fs4);
  EXPECT_EQ(back->boot->running->fw_version, (FwVersion{13, 2000, 65535}));
  EXPECT_EQ(back->boot->running->base_guid->count, 8u);
}

TEST(SimStateFile, AbsurdSizesAreRefusedBeforeReading) {
  test::TempDir dir;
  (void)saved_state(dir);
  // A flash.bin larger than the chip is refused from its size, not read into memory
  // (core/InputFile: an input over its limit is InvalidArgument, exit 2).
  std::filesystem::resize_file(dir.path() / "flash.bin", 8ull << 30);
  auto big_flash = SimDevice::load_state(dir.path());
  ASSERT_THAT(big_flash, test::FailsWith(ErrorCode::InvalidArgument));
  EXPECT_NE(big_flash.error().message().find("flash.bin"), std::string::npos) << big_flash.error().message();

  std::filesystem::resize_file(dir.path() / "state.json", SimStateFile::kMaxBytes + 1);
  auto big_state = SimDevice::load_state(dir.path());
  ASSERT_THAT(big_state, test::FailsWith(ErrorCode::InvalidArgument));
  EXPECT_FALSE(SimStateFile::parse(std::string(SimStateFile::kMaxBytes + 1, ' ')).has_value());
}

TEST(SimStateFile, NotAStateFile) {
  for (const char* text : {"", "[]", "{\"format\": 1}", "{\"format\": \"openflint-sim-state\", \"version\": 2}",
                           "{\"format\": \"openflint-sim-state\", \"version\": \"1\"}"}) {
    auto r = SimStateFile::parse(text);
    ASSERT_FALSE(r.has_value()) << text;
    EXPECT_EQ(r.error().code(), ErrorCode::InvalidImage) << text;
  }
}

}  // namespace
}  // namespace openflint::sim
