// ibfwmgr update over MADs keeps each board's identity: two ConnectX-3 (FS2) adapters with their
// own GUIDs, MACs and VSD, updated from one image, report their own afterwards.
#include <nlohmann/json.hpp>

#include "tests/inband/DeviceFabricFixture.h"

namespace openflint::test {
namespace {

std::filesystem::path sample(const std::string& name) {
  return std::filesystem::path(OPENFLINT_BIN_DIR).parent_path() / "firmware-samples" / name;
}

class InbandIdentity : public DeviceFabricFixture {
 protected:
  // The old ConnectX-3 sample with GUIDs from `guid`, MACs from `mac` and `vsd`.
  std::filesystem::path board_image(const std::string& name, const std::string& guid, const std::string& mac,
                                    const std::string& vsd) {
    const auto path = dir_.path() / (name + ".bin");
    std::filesystem::copy_file(sample("connectx3-old.bin"), path);
    const auto g = run_command({bin("flint").string(), "-i", path.string(), "sg", guid, mac});
    EXPECT_EQ(g.exit_code, 0) << g.out << g.err;
    const auto v = run_command({bin("flint").string(), "-i", path.string(), "sv", vsd});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
    return path;
  }
  nlohmann::json query(const std::string& node) {
    const auto q = flint(node, {"--json", "q"});
    EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
    auto j = nlohmann::json::parse(q.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << q.out;
    return j;
  }
};

TEST_F(InbandIdentity, IbfwmgrUpdateKeepsEachAdaptersGuidsMacsAndVsd) {
  if (!std::filesystem::exists(sample("connectx3-new.bin"))) GTEST_SKIP() << "samples not built";
  const auto a = board_image("a", "0x0002c90300a1a100", "0x0002c9a1a100", "adapter A");
  const auto b = board_image("b", "0x0002c90300b2b200", "0x0002c9b2b200", "adapter B");
  const auto images = dir_.path() / "images";
  std::filesystem::create_directories(images);
  std::filesystem::copy_file(sample("connectx3-new.bin"), images / "cx3-new.bin");
  bring_up({{"Hca2", "connectx3", a}, {"Hca3", "connectx3", b}});
  if (HasFatalFailure() || IsSkipped()) return;

  const auto up = run({bin("ibfwmgr").string(), "update", "--images", images.string(), "--yes", "--json"});
  ASSERT_EQ(up.exit_code, 0) << up.out << up.err;
  const auto report = nlohmann::json::parse(up.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << up.out;
  for (const auto& n : report["nodes"]) {
    if (n["status"] == "updated") {
      EXPECT_EQ(n["identity_from"], "device") << n.dump(2);
    }
  }
  const auto want_version = run_command({bin("flint").string(), "-i", (images / "cx3-new.bin").string(), "--json", "q"});
  const auto want = nlohmann::json::parse(want_version.out, nullptr, false);
  ASSERT_FALSE(want.is_discarded());
  struct Expect {
    const char* node;
    const char* guid;
    const char* mac;
    const char* vsd;
  };
  for (const Expect& e : {Expect{"Hca2", "0x0002c90300a1a100", "0x00000002c9a1a100", "adapter A"},
                          Expect{"Hca3", "0x0002c90300b2b200", "0x00000002c9b2b200", "adapter B"}}) {
    const auto q = query(e.node);
    EXPECT_EQ(q["fw_version"], want["fw_version"]) << q.dump(2);  // the flash image's version
    EXPECT_EQ(q["base_guid"]["base"], e.guid) << e.node << q.dump(2);
    EXPECT_EQ(q["base_mac"]["base"], e.mac) << e.node << q.dump(2);
    EXPECT_EQ(q["image_vsd"], e.vsd) << e.node << q.dump(2);
  }
}

}  // namespace
}  // namespace openflint::test
