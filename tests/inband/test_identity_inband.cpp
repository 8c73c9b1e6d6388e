// ibfwmgr update over MADs keeps each board's identity: two ConnectX-3 (FS2) adapters, and two
// ConnectX-4 (FS3, identity in DEV_INFO device data), with their own GUIDs, MACs and VSD,
// updated from one image, report their own afterwards.
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "image/FirmwareImage.h"
#include "tests/inband/DeviceFabricFixture.h"

namespace openflint::test {
namespace {

std::filesystem::path sample(const std::string& name) {
  return std::filesystem::path(OPENFLINT_BIN_DIR).parent_path() / "firmware-samples" / name;
}

class InbandIdentity : public DeviceFabricFixture {
 protected:
  // The old `model` sample with GUIDs from `guid`, MACs from `mac` and `vsd`.
  std::filesystem::path board_image(const std::string& name, const std::string& guid, const std::string& mac,
                                    const std::string& vsd, const std::string& model = "connectx3") {
    const auto path = dir_.path() / (name + ".bin");
    std::filesystem::copy_file(sample(model + "-old.bin"), path);
    std::vector<std::string> sg{bin("flint").string(), "-i", path.string(), "sg", guid};
    if (!mac.empty()) sg.push_back(mac);  // FS1 (InfiniHost) images carry no MACs
    const auto g = run_command(sg);
    EXPECT_EQ(g.exit_code, 0) << g.out << g.err;
    const auto v = run_command({bin("flint").string(), "-i", path.string(), "sv", vsd});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
    return path;
  }

  // `boards` (1 or 2) `model` adapters with their own GUIDs, MACs and VSD, one `ibfwmgr update`
  // from the new sample: each keeps its own identity, has the sample's version on flash and
  // verifies. `vsd_key`: where q reports the VSD (FS1/FS2: the image's; FS3: DEV_INFO's).
  // `macs`: whether the format carries MACs (FS1 does not).
  void update_keeps_each_identity(const std::string& model, const std::string& vsd_key, bool macs = true,
                                  int boards = 2) {
    const std::string file = model + "-new.bin";
    if (!std::filesystem::exists(sample(file))) GTEST_SKIP() << "samples not built";
    const auto a = board_image("a", "0x0002c90300a1a100", macs ? "0x0002c9a1a100" : "", "adapter A", model);
    const auto b = board_image("b", "0x0002c90300b2b200", macs ? "0x0002c9b2b200" : "", "adapter B", model);
    const auto images = dir_.path() / "images";
    std::filesystem::create_directories(images);
    std::filesystem::copy_file(sample(file), images / file);
    const bool switches = find_device_by_sim_model(model).value()->kind == DeviceKind::Switch;
    const std::string na = switches ? "Switch1" : "Hca2", nb = switches ? "Switch2" : "Hca3";
    std::vector<FabricDevice> devices{{na, model, a}, {nb, model, b}};
    devices.resize(static_cast<std::size_t>(boards));
    bring_up(devices);
    if (HasFatalFailure() || IsSkipped()) return;

    const int updated = update_keeping_identity(images);
    ASSERT_GE(updated, 0);
    EXPECT_EQ(updated, boards);
    const auto want = nlohmann::json::parse(
        run_command({bin("flint").string(), "-i", (images / file).string(), "--json", "q"}).out, nullptr, false);
    ASSERT_FALSE(want.is_discarded());
    struct Expect {
      const char* node;
      const char* guid;
      const char* mac;
      const char* vsd;
    };
    const std::vector<Expect> expects{{na.c_str(), "0x0002c90300a1a100", "0x00000002c9a1a100", "adapter A"},
                                      {nb.c_str(), "0x0002c90300b2b200", "0x00000002c9b2b200", "adapter B"}};
    for (const Expect& e : std::span(expects).first(static_cast<std::size_t>(boards))) {
      const auto q = query(e.node);
      EXPECT_EQ(q["fw_version"], want["fw_version"]) << q.dump(2);  // the flash image's version
      EXPECT_EQ(q["base_guid"]["base"], e.guid) << e.node << q.dump(2);
      if (macs) {
        EXPECT_EQ(q["base_mac"]["base"], e.mac) << e.node << q.dump(2);
      } else {
        EXPECT_TRUE(q["base_mac"].is_null()) << e.node << q.dump(2);
      }
      EXPECT_EQ(q[vsd_key], e.vsd) << e.node << q.dump(2);
      const auto v = flint(e.node, {"v"});
      EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
    }
  }
};

TEST_F(InbandIdentity, IbfwmgrUpdateKeepsEachAdaptersGuidsMacsAndVsd) { update_keeps_each_identity("connectx3", "image_vsd"); }

// FS3: the identity is device data the burn leaves on flash (the new copy's ITOC entries adopt
// the board's). Two adapters, one update: the shortest in-band FS3 identity check.
TEST_F(InbandIdentity, IbfwmgrUpdateKeepsEachConnectX4sDeviceData) { update_keeps_each_identity("connectx4", "device_vsd"); }

// FS4: a Spectrum-2 switch, identity in the DTOC's DEV_INFO. One board: the real 29.x images make
// an in-band update ~75 s per switch, and that each of several boards keeps its own identity is
// the updater's rule, checked with two boards of every other format above (with two switches
// this test took ~160-190 s of the CI's budget).
TEST_F(InbandIdentity, IbfwmgrUpdateKeepsASpectrum2sDeviceData) {
  update_keeps_each_identity("spectrum2", "device_vsd", true, 1);
}

// FS1: two InfiniHost III Lx adapters, GUIDs and VSD in each image copy, no MACs.
TEST_F(InbandIdentity, IbfwmgrUpdateKeepsEachInfiniHostsGuidsAndVsd) { update_keeps_each_identity("mt25204", "image_vsd", false); }

}  // namespace
}  // namespace openflint::test

namespace openflint::test {
namespace {

// The burn acceptance rule over MADs: an image that does not verify is refused before the
// device's flash is touched, the other devices are still updated.
TEST_F(InbandIdentity, IbfwmgrRefusesAnImageThatDoesNotVerify) {
  if (!std::filesystem::exists(sample("connectx3-new.bin"))) GTEST_SKIP() << "samples not built";
  const auto images = dir_.path() / "images";
  std::filesystem::create_directories(images);
  std::vector<std::uint8_t> bad = read_file(sample("connectx3-new.bin"));
  const auto q = query_image(bad);
  ASSERT_TRUE(q.has_value());
  bool broken = false;
  for (std::uint64_t at = q->image_start + q->image_size / 2; at < q->image_start + q->image_size && !broken; at += 97) {
    bad[at] ^= 0x5a;
    const auto v = verify_image(bad);
    broken = !v || !v->bootable();
    if (!broken) bad[at] ^= 0x5a;
  }
  ASSERT_TRUE(broken) << "no single-byte change makes the sample fail verify";
  write_file(images / "cx3-bad.bin", bad);
  bring_up({{"Hca2", "connectx3", sample("connectx3-old.bin")}});
  if (HasFatalFailure() || IsSkipped()) return;
  const auto before = query("Hca2");

  const auto up = run({bin("ibfwmgr").string(), "update", "--images", images.string(), "--yes", "--json"});
  EXPECT_EQ(up.exit_code, 1) << up.out << up.err;
  EXPECT_NE(up.out.find("does not verify"), std::string::npos) << up.out;
  const auto after = query("Hca2");
  EXPECT_EQ(after["fw_version"], before["fw_version"]) << after.dump(2);
  const auto v = flint("Hca2", {"v"});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

}  // namespace
}  // namespace openflint::test
