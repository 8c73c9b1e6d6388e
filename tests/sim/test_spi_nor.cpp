// SpiNorFlash: NOR semantics (erase -> 0xFF, program ANDs, page wrap, WEL, WIP, protection).
#include <gtest/gtest.h>

#include <vector>

#include "devices/FlashChip.h"
#include "devices/SpiOpcode.h"
#include "sim/SpiNorFlash.h"

namespace openflint::sim {
namespace {

const FlashChip& chip(const char* name) { return **find_flash_chip_by_name(name); }

void program(SpiNorFlash& f, std::uint32_t addr, std::vector<std::uint8_t> data) {
  f.command(spi::kWriteEnable);
  f.deselect();
  f.command(spi::kPageProgram);
  f.address(addr, 3);
  f.write_data(data);
  f.deselect();
}

void erase(SpiNorFlash& f, std::uint8_t op, std::uint32_t addr) {
  f.command(spi::kWriteEnable);
  f.deselect();
  f.command(op);
  f.address(addr, 3);
  f.deselect();
}

std::uint8_t status(SpiNorFlash& f) {
  f.command(spi::kReadStatus);
  std::uint8_t s = 0;
  f.read_data({&s, 1});
  f.deselect();
  return s;
}

TEST(SpiNorFlash, StartsErasedAndReportsJedecId) {
  SpiNorFlash f(chip("N25Q128A"));
  EXPECT_EQ(f.contents().size(), 16u * 1024 * 1024);
  EXPECT_EQ(f.contents()[12345], 0xff);
  f.command(spi::kReadJedecId);
  std::uint8_t id[3] = {};
  f.read_data(id);
  f.deselect();
  EXPECT_EQ(id[0], 0x20);
  EXPECT_EQ(id[1], 0xba);
  EXPECT_EQ(id[2], 0x18);
}

TEST(SpiNorFlash, ProgramOnlyClearsBits) {
  SpiNorFlash f(chip("W25Q32"));
  program(f, 0x100, {0xf0});
  program(f, 0x100, {0x3c});
  EXPECT_EQ(f.contents()[0x100], 0x30);
  EXPECT_EQ(f.counters().programs, 2u);
}

TEST(SpiNorFlash, ProgramWithoutWriteEnableIsIgnored) {
  SpiNorFlash f(chip("W25Q32"));
  f.command(spi::kPageProgram);
  f.address(0, 3);
  std::vector<std::uint8_t> zero{0};
  f.write_data(zero);
  f.deselect();
  EXPECT_EQ(f.contents()[0], 0xff);
  EXPECT_EQ(f.counters().programs, 0u);
  EXPECT_EQ(f.counters().ignored_commands, 1u);
}

TEST(SpiNorFlash, PageProgramWrapsInsideThePage) {
  SpiNorFlash f(chip("W25Q32"));
  program(f, 0x2fe, {1, 2, 3, 4});
  EXPECT_EQ(f.contents()[0x2fe], 1);
  EXPECT_EQ(f.contents()[0x2ff], 2);
  EXPECT_EQ(f.contents()[0x200], 3);  // wrapped to the page start, not into 0x300
  EXPECT_EQ(f.contents()[0x201], 4);
  EXPECT_EQ(f.contents()[0x300], 0xff);
}

TEST(SpiNorFlash, EraseSetsTheAlignedSectorToFF) {
  SpiNorFlash f(chip("N25Q128A"));
  program(f, 0x0fff, {0});
  program(f, 0x1000, {0});
  program(f, 0x1fff, {0});
  program(f, 0x2000, {0});
  erase(f, spi::kSubsectorErase, 0x1234);  // erases 0x1000..0x1fff
  EXPECT_EQ(f.contents()[0x0fff], 0);
  EXPECT_EQ(f.contents()[0x1000], 0xff);
  EXPECT_EQ(f.contents()[0x1fff], 0xff);
  EXPECT_EQ(f.contents()[0x2000], 0);
  erase(f, spi::kSectorErase, 0x0fff);  // 64 KiB block 0
  EXPECT_EQ(f.contents()[0x0fff], 0xff);
  EXPECT_EQ(f.contents()[0x2000], 0xff);
  EXPECT_EQ(f.counters().erases, 2u);
}

TEST(SpiNorFlash, OldPartIgnores4kErase) {
  SpiNorFlash f(chip("M25P16"));
  program(f, 0, {0});
  erase(f, spi::kSubsectorErase, 0);
  EXPECT_EQ(f.contents()[0], 0);
  EXPECT_EQ(f.counters().erases, 0u);
}

TEST(SpiNorFlash, WipStaysSetForConfiguredPollsAndBlocksCommands) {
  SpiNorFlash f(chip("W25Q32"));
  f.set_busy_polls(3);
  program(f, 0, {0x00});
  program(f, 1, {0x00});  // ignored: the part is busy
  EXPECT_EQ(f.contents()[1], 0xff);
  EXPECT_EQ(status(f) & spi::kStatusWip, spi::kStatusWip);
  EXPECT_EQ(status(f) & spi::kStatusWip, spi::kStatusWip);
  EXPECT_EQ(status(f) & spi::kStatusWip, spi::kStatusWip);
  EXPECT_EQ(status(f) & spi::kStatusWip, 0);
}

TEST(SpiNorFlash, WriteEnableLatchShowsInStatusAndClearsAfterOp) {
  SpiNorFlash f(chip("W25Q32"));
  f.command(spi::kWriteEnable);
  f.deselect();
  EXPECT_EQ(status(f) & spi::kStatusWel, spi::kStatusWel);
  program(f, 0, {0x12});
  EXPECT_EQ(status(f) & spi::kStatusWel, 0);
}

TEST(SpiNorFlash, WriteProtectBlocksEraseAndProgram) {
  SpiNorFlash f(chip("W25Q32"));
  program(f, 0, {0x00});
  f.set_write_protected(true);
  erase(f, spi::kSubsectorErase, 0);
  program(f, 1, {0x00});
  EXPECT_EQ(f.contents()[0], 0x00);
  EXPECT_EQ(f.contents()[1], 0xff);
}

TEST(SpiNorFlash, ReadContinuesAcrossDataPhases) {
  SpiNorFlash f(chip("W25Q32"));
  program(f, 0x10, {1, 2, 3, 4});
  f.command(spi::kRead);
  f.address(0x10, 3);
  std::uint8_t a[2] = {};
  std::uint8_t b[2] = {};
  f.read_data(a);
  f.read_data(b);
  f.deselect();
  EXPECT_EQ(a[0], 1);
  EXPECT_EQ(a[1], 2);
  EXPECT_EQ(b[0], 3);
  EXPECT_EQ(b[1], 4);
  EXPECT_EQ(f.counters().reads, 1u);
}

}  // namespace
}  // namespace openflint::sim
