// SampleDevice: simulated devices holding the firmware-samples/ images (made by fwburn), and their raw flash.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/devcli/DevcliFixture.h"

namespace openflint::test {

class SampleDeviceTest : public DevcliTest {
 protected:
  // firmware-samples/MODEL/RELEASE.{fwdesc,ini} generated into the temp dir (same bytes as the build's samples).
  std::string sample(const std::string& model, const std::string& release) {
    const std::filesystem::path src = std::filesystem::path(OPENFLINT_SOURCE_DIR) / "firmware-samples" / model;
    const std::string out = (dir_ / (model + "-" + release + ".bin")).string();
    const CommandResult r = run_tool("fwburn", {"-fw", (src / (release + ".fwdesc")).string(), "-conf",
                                                (src / (release + ".ini")).string(), "-wrimage", out});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return out;
  }
  // A simulated MODEL on its catalog flash chip, burned with the sample's RELEASE image.
  void create_sample(const std::string& model, const std::string& release, const std::string& name = "dev") {
    const CommandResult r = hcasim({"create", "--model", model, dev_path(name), "--image", sample(model, release)});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  std::filesystem::path flash_path(const std::string& name = "dev") const {
    return std::filesystem::path(dev_path(name)) / "flash.bin";
  }
  std::vector<std::uint8_t> flash(const std::string& name = "dev") const { return read_file(flash_path(name)); }
  // The flash size without reading 16-32 MiB into memory (fresh pages dominate ASan wall time).
  std::uint64_t flash_size(const std::string& name = "dev") const { return std::filesystem::file_size(flash_path(name)); }
  // True when files `a` and `b` hold the same bytes, compared 64 KiB at a time.
  static bool same_bytes(const std::filesystem::path& a, const std::filesystem::path& b) {
    std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
    if (!fa || !fb || std::filesystem::file_size(a) != std::filesystem::file_size(b)) return false;
    std::vector<char> ba(1 << 16), bb(1 << 16);
    while (fa && fb) {
      fa.read(ba.data(), static_cast<std::streamsize>(ba.size()));
      fb.read(bb.data(), static_cast<std::streamsize>(bb.size()));
      if (fa.gcount() != fb.gcount() || !std::equal(ba.begin(), ba.begin() + fa.gcount(), bb.begin())) return false;
    }
    return true;
  }
  // Changes the flash the way a fault would (the device is not in use).
  void set_flash(const std::vector<std::uint8_t>& bytes, const std::string& name = "dev") const {
    write_file(std::filesystem::path(dev_path(name)) / "flash.bin", bytes);
  }
  // What the simulated boot ROM started at power-on: "recovery", "booted_copy", "fw_version".
  nlohmann::json power_on_boot(const std::string& name = "dev") {
    EXPECT_EQ(hcasim({"power-on", dev_path(name)}).exit_code, 0);
    const CommandResult show = hcasim({"show", dev_path(name), "--json"});
    EXPECT_EQ(show.exit_code, 0) << show.err;
    return parse_json(show)["running"];
  }
};

}  // namespace openflint::test
