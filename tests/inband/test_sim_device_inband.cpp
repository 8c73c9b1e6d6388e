// A saved SimDevice served over ibsim: our in-band client reads its hw id and flash back.
#include "image/Fs2Image.h"
#include "image/Fs2Writer.h"
#include "tests/inband/SimDeviceFabricFixture.h"

namespace openflint::test {
namespace {

std::vector<std::uint8_t> connectx3_flash_image() {
  Fs2ImageSpec s;
  s.fw_version = {2, 42, 5000};
  s.psid = "MT_1090120019";
  s.base_guid = 0x0002c90300a1b2c0ull;
  s.base_mac = 0x0002c9a1b2c0ull;
  s.supported_hw_ids = {0x1f5};
  std::vector<std::uint8_t> ddr(6000);
  for (std::size_t i = 0; i < ddr.size(); ++i) ddr[i] = static_cast<std::uint8_t>(i * 29 + 7);
  s.sections.push_back({gph::kDdr, ddr, 0});
  // The contiguous form keeps the read-back short: every 16 bytes of flash cost a gateway
  // transaction (about five MADs), ~33 KB/s under ibsim.
  s.striped = false;
  auto image = write_fs2_image(s);
  EXPECT_TRUE(image) << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

class SimDeviceInband : public SimDeviceFabricFixture {};

TEST_F(SimDeviceInband, ClientReadsHwIdAndFlashImageOverLid) {
  const auto image = connectx3_flash_image();
  ASSERT_FALSE(image.empty());
  serve("connectx3", image);
  if (HasFatalFailure() || IsSkipped()) return;

  auto hw = run({bin("mtcr-tool").string(), "-d", lid_name(), "read", "0xf0014"});
  EXPECT_EQ(hw.exit_code, 0) << hw.err;
  EXPECT_EQ(hw.out, "0x000001f5\n");

  const auto out = dir_.path() / "readback.bin";
  auto r = run({bin("mtcr-tool").string(), "-d", lid_name(), "flashread", "0", std::to_string(image.size()),
                out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("hw_id=0x1f5 jedec=0x20ba18"), std::string::npos) << r.out;
  RecordProperty("flashread", r.out);
  const auto back = read_file(out);
  EXPECT_EQ(back, image);
  auto verified = fs2::verify(back, 0);
  ASSERT_TRUE(verified) << verified.error().message();
  EXPECT_TRUE(verified->bootable());
}

TEST_F(SimDeviceInband, StateIsSavedWhenTheResponderStops) {
  serve("connectx4", std::vector<std::uint8_t>(4096, 0x5a));
  if (HasFatalFailure() || IsSkipped()) return;
  auto w = run({bin("mtcr-tool").string(), "-d", lid_name(), "write", "0x3000", "0xfeedf00d"});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  auto device = stop_and_reload();
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->cr_space().peek(0x3000), 0xfeedf00du);
  EXPECT_GT(device->counters().register_writes, 0u);
  const auto flash = device->flash().contents();
  ASSERT_GE(flash.size(), 4097u);
  EXPECT_EQ(std::vector<std::uint8_t>(flash.begin(), flash.begin() + 4096), std::vector<std::uint8_t>(4096, 0x5a));
  EXPECT_EQ(flash[4096], 0xff);
}

}  // namespace
}  // namespace openflint::test
