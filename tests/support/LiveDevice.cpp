// LiveDevice: builds the images and flash of the firmware-path tests.
#include "tests/support/LiveDevice.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "image/ImagePatch.h"
#include "tests/support/SyntheticImage.h"

namespace openflint::test {

std::vector<std::uint8_t> mcc_fs3(std::uint16_t minor, std::uint32_t hw_id, std::string psid, bool mcc) {
  SyntheticSpec s;
  s.hw_id = hw_id;
  s.fw_major = 12;
  s.fw_minor = minor;
  s.fw_subminor = 1100;
  s.psid = std::move(psid);
  return mcc ? build_fs3_mcc(s).bytes : build_fs3(s).bytes;
}

std::unique_ptr<sim::SimDevice> device_running(const std::string& model, const std::vector<std::uint8_t>& image) {
  auto d = sim::SimDevice::create(model);
  EXPECT_TRUE(d) << d.error().message();
  std::vector<std::uint8_t> flash((*d)->flash().contents().size(), 0xff);
  std::copy(image.begin(), image.end(), flash.begin());
  EXPECT_TRUE((*d)->flash().set_contents(flash));
  (*d)->power_cycle();
  return std::move(*d);
}

std::vector<std::uint8_t> live_board_flash(std::size_t flash_size) {
  auto image = set_guids(mcc_fs3(28), GuidSettings{kLiveBoardGuid, kLiveBoardMac});
  EXPECT_TRUE(image) << image.error().message();
  std::vector<std::uint8_t> flash(flash_size, 0xff);
  if (image) std::copy(image->begin(), image->end(), flash.begin());
  return flash;
}

std::unique_ptr<sim::SimDevice> live_connectx4() {
  auto image = set_guids(mcc_fs3(28), GuidSettings{kLiveBoardGuid, kLiveBoardMac});
  EXPECT_TRUE(image) << image.error().message();
  return device_running("connectx4", image ? *image : std::vector<std::uint8_t>{});
}

Result<Device> live_sim_connectx4(const std::filesystem::path& dir) {
  OF_ASSIGN(Device dev, create_sim_device(dir, "connectx4", ""));
  OF_TRY(dev.simulator()->flash().set_contents(live_board_flash(dev.simulator()->flash().contents().size())));
  dev.simulator()->power_cycle();
  return dev;
}

}  // namespace openflint::test
