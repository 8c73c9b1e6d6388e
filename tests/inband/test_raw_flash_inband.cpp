// flint's raw flash commands (ww/wb/erase, rb/ri) on a live ConnectX-4 over MADs (lid-N): they go through the running firmware (MFBA/MFBE), never the gateway.
#include <algorithm>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "image/FirmwareImage.h"
#include "tests/inband/DeviceFabricFixture.h"
#include "tests/support/LiveDevice.h"

namespace openflint::test {
namespace {

constexpr std::uint32_t kSpare = 0x400000;  // past the image at 0, before the second slot

std::string hex(std::uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%x", v);
  return text;
}

class RawFlashInband : public DeviceFabricFixture {
 protected:
  std::vector<std::uint8_t> rb(std::uint32_t address, std::uint32_t size) {
    const auto out = dir_.path() / "rb.bin";
    std::filesystem::remove(out);
    auto r = flint("Hca2", {"rb", hex(address), hex(size), out.string()});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return std::filesystem::exists(out) ? read_file(out) : std::vector<std::uint8_t>{};
  }
};

std::vector<std::uint8_t> slice(std::span<const std::uint8_t> v, std::size_t at, std::size_t n) {
  if (at + n > v.size()) return {};
  return {v.begin() + static_cast<std::ptrdiff_t>(at), v.begin() + static_cast<std::ptrdiff_t>(at + n)};
}

TEST_F(RawFlashInband, WwWbEraseThenRbRiThroughTheFirmwareOverMads) {
  const auto image = mcc_fs3(28);
  const auto image_path = dir_.path() / "a.bin";
  write_file(image_path, image);
  bring_up({{"Hca2", "connectx4", image_path}});
  if (HasFatalFailure() || IsSkipped()) return;
  sim::SimCounters created;
  {
    auto d = sim::SimDevice::load_state(device_dir("Hca2"));  // as hcasim saved it
    ASSERT_TRUE(d) << d.error().message();
    created = (*d)->counters();
  }

  auto ww = flint("Hca2", {"ww", "0x400100", "0x12345678"});
  ASSERT_EQ(ww.exit_code, 0) << ww.out << ww.err;
  const auto block = random_bytes(0x1800, 41);  // a sector and a half, from mid-sector
  write_file(dir_.path() / "block.bin", block);
  auto wb = flint("Hca2", {"wb", (dir_.path() / "block.bin").string(), "0x400800"});
  ASSERT_EQ(wb.exit_code, 0) << wb.out << wb.err;

  auto back = rb(kSpare, 0x2000);
  ASSERT_EQ(back.size(), 0x2000u);
  EXPECT_EQ(slice(back, 0x100, 4), (std::vector<std::uint8_t>{0x12, 0x34, 0x56, 0x78}));
  EXPECT_EQ(slice(back, 0, 0x100), std::vector<std::uint8_t>(0x100, 0xff));
  EXPECT_EQ(slice(back, 0x800, 0x1800), block);

  auto erase = flint("Hca2", {"erase", "0x400123"});  // the sector holding the ww word and half the block
  ASSERT_EQ(erase.exit_code, 0) << erase.out << erase.err;
  back = rb(kSpare, 0x2000);
  ASSERT_EQ(back.size(), 0x2000u);
  EXPECT_EQ(slice(back, 0, 0x1000), std::vector<std::uint8_t>(0x1000, 0xff));
  EXPECT_EQ(slice(back, 0x1000, 0x1000), slice(block, 0x800, 0x1000));  // the next sector kept

  const auto ri_path = dir_.path() / "ri.bin";
  auto ri = flint("Hca2", {"ri", ri_path.string()});
  ASSERT_EQ(ri.exit_code, 0) << ri.out << ri.err;
  const auto read_image = read_file(ri_path);
  auto verified = verify_image(read_image);
  ASSERT_TRUE(verified) << verified.error().message();
  EXPECT_TRUE(verified->bootable());
  auto query = query_image(read_image);
  ASSERT_TRUE(query) << query.error().message();
  ASSERT_TRUE(query->fw_version);
  EXPECT_EQ(query->fw_version->minor, 28u);

  auto device = stop_and_load("Hca2");
  ASSERT_NE(device, nullptr);
  const auto c = device->counters();
  EXPECT_EQ(c.gateway_commands, created.gateway_commands) << "a raw flash command used the CR-space gateway";
  EXPECT_EQ(c.firmware.gateway_conflicts, 0u);
  EXPECT_FALSE(device->boot_state().firmware_hung);
  EXPECT_GT(c.firmware.flash_programs, created.firmware.flash_programs);
  EXPECT_GT(c.firmware.flash_erases, created.firmware.flash_erases);
  // Every erase and program since hcasim created the device was the firmware's.
  EXPECT_EQ(c.flash.erases - created.flash.erases, c.firmware.flash_erases - created.firmware.flash_erases);
  EXPECT_EQ(c.flash.programs - created.flash.programs, c.firmware.flash_programs - created.firmware.flash_programs);
  // The saved flash agrees with what rb read over MADs, and the image at 0 is untouched.
  const auto flash = device->flash().contents();
  EXPECT_EQ(slice(flash, kSpare, 0x2000), back);
  EXPECT_EQ(slice(flash, 0, image.size()), image);
}

}  // namespace
}  // namespace openflint::test
