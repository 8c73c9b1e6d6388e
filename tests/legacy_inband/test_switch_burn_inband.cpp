// In-band query and burn of switches as the fabric's switch, over ibsim: SwitchX (FS2 on SPI flash
// through CR-space MADs) and InfiniScale III (FS1 in I2C EEPROMs, reached through ExtPortAccess
// I2C MADs: the in-band transport's i2c()). Sample old -> new: q shows the old version, burn,
// q shows the new one; InfiniScale (MT43132) from blank EEPROMs. Default tests (label inband):
// each takes 1-4 s under ibsim (SwitchX ~20k CR-space MADs, InfiniScale III ~2.5k ExtPortAccess).
#include <chrono>
#include <cstdio>
#include <string>

#include "image/FirmwareImage.h"
#include "tests/inband/DeviceFabricFixture.h"

namespace openflint::test {
namespace {

class SwitchBurnInband : public DeviceFabricFixture, public ::testing::WithParamInterface<const char*> {
 protected:
  std::string model() const { return GetParam(); }
  std::filesystem::path sample(const char* version) const { return sample_image(model() + "-" + version); }
  std::string version_of(const char* version) const {
    const auto bytes = read_file(sample(version));
    auto q = query_image(bytes);
    EXPECT_TRUE(q && q->fw_version) << (q ? "no version" : q.error().message());
    return q && q->fw_version ? q->fw_version->to_string() : std::string{};
  }
  static std::string read_text(const std::filesystem::path& path) {
    const auto bytes = read_file(path);
    return std::string(bytes.begin(), bytes.end());
  }
  static bool has(const CapturedRun& r, const std::string& s) {
    return r.out.find(s) != std::string::npos || r.err.find(s) != std::string::npos;
  }
  // The version on flash: q's "FW Version:" line (the running one stays until a reboot).
  static std::string flash_version(const CapturedRun& r) {
    const std::string key = "\nFW Version:";
    const auto at = ("\n" + r.out).find(key);
    if (at == std::string::npos) return {};
    const auto start = r.out.find_first_not_of(' ', at + key.size() - 1);
    return start == std::string::npos ? std::string{} : r.out.substr(start, r.out.find('\n', start) - start);
  }
};

TEST_P(SwitchBurnInband, QueryBurnQueryOldToNew) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string old_version = version_of("old");
  const std::string new_version = version_of("new");
  ASSERT_NE(old_version, new_version);
  const std::string node = SimFabric::kSwitch;
  bring_up({{node, model(), sample("old")}});
  if (HasFatalFailure() || IsSkipped()) return;
  auto info = find_device_by_sim_model(model());
  ASSERT_TRUE(info) << info.error().message();
  auto r = flint(node, {"q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(flash_version(r), old_version) << r.out;
  EXPECT_TRUE(has(r, std::string((*info)->name))) << r.out;
  // The burn through a tracing responder: which MADs carried it.
  (void)stop_and_load(node);
  start_responder(node, {"--trace"});
  if (HasFatalFailure()) return;
  const std::filesystem::path log = fabric_->dir() / ("responder-" + node + ".log");
  const std::size_t log_start = read_text(log).size();
  std::vector<std::string> argv{bin("flint").string(), "-d", lid_name(node), "-i", sample("new").string(), "-y", "burn"};
  r = run(argv, 600000);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string trace = read_text(log).substr(log_start);
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (auto at = trace.find(what); at != std::string::npos; at = trace.find(what, at + 1)) ++n;
    return n;
  };
  // ExtPortAccess (attr 0x13) writes at most 64 EEPROM bytes each.
  const std::size_t i2c_writes = count("attr=0x0013") ;
  const std::size_t image_bytes = read_file(sample("new")).size();
  if ((*info)->name.starts_with("InfiniScale")) {
    EXPECT_GE(i2c_writes, image_bytes / 64) << "the EEPROM burn did not go through ExtPortAccess";
  } else {
    EXPECT_EQ(i2c_writes, 0u);
    EXPECT_GE(count("attr=0xff50") + count("attr=0x0050"), image_bytes / 256) << "no CR-space MADs";
  }
  std::printf("[legacy_inband] %s burn: %zu ExtPortAccess MADs, %zu trace lines\n", model().c_str(), i2c_writes,
              count("\n"));
  r = flint(node, {"q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(flash_version(r), new_version) << r.out;
  std::printf("[legacy_inband] %s (switch) old -> new over MADs: %.1f s\n", model().c_str(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

// InfiniScale (MT43132) has one sample: its EEPROMs start blank, flint burns the new image in-band
// (ExtPortAccess I2C), and q then reads it back.
class BlankSwitchInband : public DeviceFabricFixture {};

TEST_F(BlankSwitchInband, InfiniScaleBlankEepromsBurntInband) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto image = sample_image("mt43132-new");
  auto q = query_image(read_file(image));
  ASSERT_TRUE(q && q->fw_version) << (q ? "no version" : q.error().message());
  const std::string version = q->fw_version->to_string();
  const std::string node = SimFabric::kSwitch;
  bring_up({{node, "mt43132", {}}});
  if (HasFatalFailure() || IsSkipped()) return;
  auto r = flint(node, {"q"});
  EXPECT_NE(r.exit_code, 0) << "q found an image in blank EEPROMs: " << r.out;
  // Blank EEPROMs hold no GUIDs to keep: flint refuses until told to take the image's.
  r = run({bin("flint").string(), "-d", lid_name(node), "-i", image.string(), "-y", "burn"}, 600000);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("GUIDs cannot be read"), std::string::npos) << r.err;
  r = run({bin("flint").string(), "-d", lid_name(node), "-i", image.string(), "-y", "--use_image_guids", "burn"},
          600000);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint(node, {"q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("InfiniScale (MT43132"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(version), std::string::npos) << r.out;
  std::printf("[legacy_inband] mt43132 (switch) blank -> new over MADs: %.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

INSTANTIATE_TEST_SUITE_P(Switches, SwitchBurnInband, ::testing::Values("switchx", "mt47396"));

}  // namespace
}  // namespace openflint::test
