// DevcliFixture: runs the real hcasim and flint binaries on sim:PATH devices in a temp dir.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "image/Fs2Writer.h"
#include "tests/support/SyntheticImage.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

inline CommandResult run_tool(const std::string& tool, std::initializer_list<std::string> args) {
  std::vector<std::string> argv{bin(tool).string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv);
}

inline nlohmann::json parse_json(const CommandResult& r) {
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << "not json: " << r.out << r.err;
  return j;
}

// A small FS2 image for a ConnectX-3 (non-failsafe file layout, as mlxburn writes it).
inline std::vector<std::uint8_t> fs2_image(FwVersion version = {2, 42, 5000}, std::string psid = "MT_1090120019") {
  Fs2ImageSpec s;
  s.fw_version = version;
  s.release_date = ReleaseDate{2019, 9, 23};
  s.psid = std::move(psid);
  s.vsd = "openflint devcli";
  s.base_guid = 0x0002c90300a1b2c0ull;
  s.base_mac = 0x0002c9a1b2c0ull;
  s.supported_hw_ids = {0x1f5};
  std::vector<std::uint8_t> ddr(8192);
  for (std::size_t i = 0; i < ddr.size(); ++i) ddr[i] = static_cast<std::uint8_t>(i * 13 + 1);
  s.sections.push_back({gph::kDdr, ddr, 0});
  s.sections.push_back({gph::kCnf, std::vector<std::uint8_t>(256, 0x42), 0});
  s.sections.push_back({gph::kJmp, std::vector<std::uint8_t>(16, 0x01), 0});
  auto image = write_fs2_image(s);
  if (!image) ADD_FAILURE() << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

// A small FS3 image for a ConnectX-4 (hw id 0x209).
inline std::vector<std::uint8_t> fs3_image(std::uint16_t minor = 2000, std::string psid = "MT_2190110032") {
  SyntheticSpec spec;
  spec.hw_id = 0x209;
  spec.fw_major = 12;
  spec.fw_minor = minor;
  spec.fw_subminor = 1010;
  spec.psid = std::move(psid);
  return build_fs3(spec).bytes;
}

class DevcliTest : public ::testing::Test {
 protected:
  CommandResult flint(std::initializer_list<std::string> args) { return run_tool("flint", args); }
  CommandResult hcasim(std::initializer_list<std::string> args) { return run_tool("hcasim", args); }
  std::string dev_path(const std::string& name = "dev") const { return (dir_ / name).string(); }
  std::string dev(const std::string& name = "dev") const { return "sim:" + dev_path(name); }
  std::string write(const std::string& name, const std::vector<std::uint8_t>& bytes) const {
    write_file(dir_ / name, bytes);
    return (dir_ / name).string();
  }
  // A simulated device with a 4 MiB flash (fast to load and save), optionally factory-burned.
  void create(const std::string& model, const std::vector<std::uint8_t>& image, const std::string& name = "dev") {
    CommandResult r = image.empty()
                          ? hcasim({"create", "--model", model, dev_path(name), "--flash", "N25Q032A"})
                          : hcasim({"create", "--model", model, dev_path(name), "--flash", "N25Q032A", "--image",
                                    write(name + ".img", image)});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }

  TempDir dir_;
};

}  // namespace openflint::test
