// Tests: flint's cs, bc, bb, swreset, hw query, dc, wbne, clear_semaphore and e on simulated devices and images.
#include <fstream>

#include "tests/devcli/DevcliFixture.h"

namespace openflint::test {
namespace {

std::filesystem::path samples_dir() { return bin("flint").parent_path().parent_path() / "firmware-samples"; }

class FlintMoreTest : public DevcliTest {
 protected:
  // A sample image built by the build (connectx3 = FS2, connectx4 = FS3), or skip.
  std::string sample(const std::string& name) {
    const auto path = samples_dir() / name;
    if (!std::filesystem::exists(path)) return {};
    return path.string();
  }
  // A simulated device with its default flash, burned with `image_path` by hcasim.
  void create_with(const std::string& model, const std::string& image_path, const std::string& name = "dev") {
    auto r = hcasim({"create", "--model", model, dev_path(name), "--image", image_path});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  static std::string one_line(const std::string& text) { return text.substr(0, text.find('\n')); }
};

#define REQUIRE_SAMPLE(var, name)                                          \
  const std::string var = sample(name);                                    \
  if (var.empty()) GTEST_SKIP() << "sample " << name << " not built yet (build target firmware_samples)"

TEST_F(FlintMoreTest, ChecksumOnDeviceEqualsChecksumOfTheImageFs2AndFs3) {
  for (const auto& [model, file] : {std::pair{"connectx3", "connectx3-new.bin"}, {"connectx4", "connectx4-new.bin"}}) {
    SCOPED_TRACE(model);
    REQUIRE_SAMPLE(image, file);
    create_with(model, image, model);
    auto on_image = flint({"-i", image, "checksum"});
    ASSERT_EQ(on_image.exit_code, 0) << on_image.err;
    auto on_device = flint({"-d", dev(model), "cs"});
    ASSERT_EQ(on_device.exit_code, 0) << on_device.err;
    EXPECT_EQ(on_device.out, on_image.out);
    EXPECT_TRUE(on_image.out.starts_with("Checksum: ")) << on_image.out;
    EXPECT_EQ(on_image.out.size(), std::string("Checksum: \n").size() + 32);
    // The GUIDs are device data: setting them changes neither the checksum nor bc's answer.
    auto sg = flint({"-d", dev(model), "sg", "0x0002c90300ffee00", "0x0002c9ffee00"});
    ASSERT_EQ(sg.exit_code, 0) << sg.err;
    auto after = flint({"-d", dev(model), "--json", "cs"});
    ASSERT_EQ(after.exit_code, 0) << after.err;
    EXPECT_EQ("Checksum: " + parse_json(after)["checksum"].get<std::string>() + "\n", on_image.out);
    auto bc = flint({"-d", dev(model), "-i", image, "bc"});
    EXPECT_EQ(bc.exit_code, 0) << bc.out << bc.err;
  }
}

TEST_F(FlintMoreTest, ChecksumOfAnFs1ImageIsNotSupported) {
  REQUIRE_SAMPLE(image, "mt25204-new.bin");
  auto r = flint({"-i", image, "cs"});
  EXPECT_EQ(r.exit_code, 6);
  EXPECT_NE(r.err.find("-E- "), std::string::npos);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(FlintMoreTest, BinaryCompareNamesTheFirstDifferingSection) {
  REQUIRE_SAMPLE(image_new, "connectx4-new.bin");
  REQUIRE_SAMPLE(image_old, "connectx4-old.bin");
  create_with("connectx4", image_new);
  auto equal = flint({"-d", dev(), "-i", image_new, "binary_compare"});
  EXPECT_EQ(equal.exit_code, 0) << equal.out << equal.err;
  auto differ = flint({"-d", dev(), "-i", image_old, "bc", "--json"});
  EXPECT_EQ(differ.exit_code, 1) << differ.out << differ.err;
  const auto j = parse_json(differ);
  EXPECT_EQ(j["equal"], false);
  EXPECT_FALSE(j["first_difference"]["section"].get<std::string>().empty());
  auto text = flint({"-d", dev(), "-i", image_old, "bc"});
  EXPECT_NE(text.out.find("Binary comparison failed: section "), std::string::npos) << text.out;
  auto no_image = flint({"-d", dev(), "bc"});
  EXPECT_EQ(no_image.exit_code, 2);
  EXPECT_EQ(one_line(no_image.err), "-E- binary_compare needs both -d DEVICE and -i IMAGE");
}

TEST_F(FlintMoreTest, BurnBlockAsksAndBurnsInPlaceWithoutFailsafe) {
  REQUIRE_SAMPLE(image_new, "connectx4-new.bin");
  REQUIRE_SAMPLE(image_old, "connectx4-old.bin");
  create_with("connectx4", image_new);
  auto declined = flint({"-d", dev(), "-i", image_old, "bb", "--no"});
  EXPECT_EQ(declined.exit_code, 7) << declined.err;
  auto no_tty = flint({"-d", dev(), "-i", image_old, "bb"});  // stdin is not a terminal here
  EXPECT_EQ(no_tty.exit_code, 7) << no_tty.err;
  EXPECT_NE(no_tty.err.find("rerun with --yes"), std::string::npos) << no_tty.err;
  EXPECT_EQ(flint({"-d", dev(), "-i", image_new, "bc"}).exit_code, 0) << "declined bb changed the flash";
  auto burned = flint({"-d", dev(), "-i", image_old, "bb", "-y", "--json"});
  ASSERT_EQ(burned.exit_code, 0) << burned.out << burned.err;
  EXPECT_EQ(parse_json(burned)["ok"], true);
  EXPECT_EQ(flint({"-d", dev(), "-i", image_old, "bc"}).exit_code, 0);
  auto q = parse_json(flint({"-d", dev(), "q", "--json"}));
  EXPECT_EQ(q["image_start"], "0x0") << q.dump();
  EXPECT_EQ(flint({"-d", dev(), "v"}).exit_code, 0);
}

TEST_F(FlintMoreTest, SwresetResetsSwitchesAndRefusesAdapters) {
  create("connectx4", {});  // blank flash, N25Q032A
  auto adapter = flint({"-d", dev(), "swreset"});
  EXPECT_EQ(adapter.exit_code, 6);
  EXPECT_NE(adapter.err.find("resets switches only"), std::string::npos) << adapter.err;
  ASSERT_EQ(hcasim({"create", "--model", "spectrum", dev_path("sw")}).exit_code, 0);
  auto sw = flint({"-d", dev("sw"), "swreset", "--json"});
  EXPECT_EQ(sw.exit_code, 0) << sw.out << sw.err;
}

TEST_F(FlintMoreTest, HwQueryShowsTheFlashChipFromTheCatalog) {
  create("connectx4", {});  // blank flash, N25Q032A
  auto text = flint({"-d", dev(), "hw", "query"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("  Type                    N25Q032A"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  SectorSize              0x1000"), std::string::npos) << text.out;
  auto j = parse_json(flint({"-d", dev(), "hw", "query", "--json"}));
  EXPECT_EQ(j["flash"]["type"], "N25Q032A");
  EXPECT_EQ(j["flash"]["total_size"], 4u << 20);
  EXPECT_EQ(j["flash"]["jedec_id"], "0x20ba16");
  EXPECT_EQ(j["flash"]["write_protected"], false);
  EXPECT_EQ(j["hw_dev_id"], 0x209);
  EXPECT_EQ(flint({"-d", dev(), "hw"}).exit_code, 2);
}

TEST_F(FlintMoreTest, DumpConfigOnADeviceEqualsTheImagesIni) {
  REQUIRE_SAMPLE(image, "connectx4-new.bin");
  create_with("connectx4", image);
  auto from_image = flint({"-i", image, "dc"});
  ASSERT_EQ(from_image.exit_code, 0) << from_image.err;
  auto from_device = flint({"-d", dev(), "dc"});
  ASSERT_EQ(from_device.exit_code, 0) << from_device.err;
  EXPECT_EQ(from_device.out, from_image.out);
  EXPECT_NE(from_device.out.find("[image]"), std::string::npos);
  create("connectx4", {}, "blank");
  auto blank = flint({"-d", dev("blank"), "dc"});
  EXPECT_EQ(blank.exit_code, 3) << blank.err;
}

TEST_F(FlintMoreTest, WriteBlockWithoutEraseAndTheEraseAlias) {
  create("connectx4", {});  // blank flash, N25Q032A
  const std::string sector = "0x300000";
  ASSERT_EQ(flint({"-d", dev(), "e", sector}).exit_code, 0);
  auto w = flint({"-d", dev(), "wbne", sector, "8", "0x12345678", "0xcafe0000"});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(flint({"-d", dev(), "rw", sector}).out, "0x12345678\n");
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x300004"}).out, "0xcafe0000\n");
  // Bits can only go 1 -> 0 without an erase.
  auto up = flint({"-d", dev(), "wbne", sector, "4", "0xffffffff"});
  EXPECT_EQ(up.exit_code, 3) << up.err;
  EXPECT_NE(up.err.find("bits can only go from 1 to 0"), std::string::npos) << up.err;
  auto bad_size = flint({"-d", dev(), "wbne", sector, "12", "0x1"});
  EXPECT_EQ(bad_size.exit_code, 2);
  EXPECT_EQ(one_line(bad_size.err), "-E- size 12 must be 4 bytes per DATA word (1 given)");
  EXPECT_EQ(flint({"-d", dev(), "wbne", "0x300002", "4", "0x1"}).exit_code, 2);
  EXPECT_EQ(flint({"-d", dev(), "wbne", sector, "4", "0x100000000"}).exit_code, 2);
}

TEST_F(FlintMoreTest, ClearSemaphoreReleasesALockACrashedToolLeft) {
  create("connectx4", {});  // blank flash, N25Q032A
  const auto state_path = std::filesystem::path(dev_path()) / "state.json";
  nlohmann::json state;
  std::ifstream(state_path) >> state;
  ASSERT_TRUE(state.contains("flash_locked")) << state.dump();
  state["flash_locked"] = true;  // a tool died holding the flash semaphore
  std::ofstream(state_path) << state.dump();
  auto busy = flint({"-d", dev(), "hw", "query", "--lock-timeout", "50"});
  EXPECT_EQ(busy.exit_code, 5) << busy.err;
  auto cleared = flint({"-d", dev(), "clear_semaphore"});
  ASSERT_EQ(cleared.exit_code, 0) << cleared.err;
  EXPECT_EQ(flint({"-d", dev(), "hw", "query"}).exit_code, 0);
}

TEST_F(FlintMoreTest, SetGuidsWithGuidsNumAndStepSizeOnFs3) {
  REQUIRE_SAMPLE(image, "connectx4-new.bin");
  const std::string copy = write("fs3.bin", read_file(image));
  auto r = flint({"-i", copy, "sg", "0x0002c90300a1b2c0", "guids_num=16", "step_size=2", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = parse_json(r);
  EXPECT_EQ(j["base_guid"]["base"], "0x0002c90300a1b2c0");
  EXPECT_EQ(j["base_guid"]["count"], 16);
  EXPECT_EQ(j["base_mac"]["count"], 16);
  auto per_port = flint({"-i", copy, "sg", "0x0002c90300a1b2c0", "0x0002c9a1b2c0", "guids_num=8,4", "--json"});
  ASSERT_EQ(per_port.exit_code, 0) << per_port.err;
  EXPECT_EQ(parse_json(per_port)["base_guid"]["count"], 8);  // one DEV_INFO entry: port 1's value
  EXPECT_EQ(flint({"-i", copy, "v"}).exit_code, 0);
  // The same on a device.
  create_with("connectx4", image);
  auto on_dev = flint({"-d", dev(), "sg", "0x0002c90300a1b2c0", "guids_num=12", "--json"});
  ASSERT_EQ(on_dev.exit_code, 0) << on_dev.err;
  EXPECT_EQ(parse_json(flint({"-d", dev(), "q", "--json"}))["base_guid"]["count"], 12);
  // Bad forms: a clear one-line error and the documented exit code.
  auto too_big = flint({"-i", copy, "sg", "0x2", "guids_num=300"});
  EXPECT_EQ(too_big.exit_code, 2);
  EXPECT_EQ(one_line(too_big.err), "-E- sg parameter 'guids_num=300': at most 255 (an 8-bit field)");
  auto unknown = flint({"-i", copy, "sg", "0x2", "foo=1"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(one_line(unknown.err), "-E- sg parameter 'foo=1': expected guids_num=N[,N2] or step_size=S[,S2]");
  REQUIRE_SAMPLE(fs2, "connectx3-new.bin");
  const std::string fs2_copy = write("fs2.bin", read_file(fs2));
  auto not_fs3 = flint({"-i", fs2_copy, "sg", "0x2", "step_size=1"});
  EXPECT_EQ(not_fs3.exit_code, 6) << not_fs3.err;
}

}  // namespace
}  // namespace openflint::test
