// ibfwmgr in-band on today's InfiniBand-capable adapters (ConnectX-5, -6, -7, BlueField-2/3; the
// ConnectX-6 Dx and Lx are Ethernet-only and never sit on an InfiniBand fabric), each a board made
// from its old sample with its own GUIDs, MACs and VSD, answer vendor MADs on one ibsim fabric
// (Hca2..Hca6: five responders, under ibsim's limit of nine, docs/inband.md). Our flint queries each over lid-N; one `ibfwmgr update` burns every model's new
// sample (picked by PSID) and each board keeps its identity. No `flint v` per node afterwards
// (~3 s each over MADs): the update verified the image with the board's identity before writing
// and read back every sector it wrote. The catalog records no adapter of these families without
// vendor MAD access (docs/devices.md), so none is expected to be skipped.
#include "tests/inband/DeviceFabricFixture.h"
#include "tests/todays_adapters/TodaysAdapters.h"

namespace openflint::test {
namespace {

// The adapters of kTodaysAdapters that have InfiniBand ports.
const std::vector<std::string> kInfiniBandAdapters{"connectx5", "connectx6", "connectx7", "bluefield2", "bluefield3"};

class TodaysAdapterInband : public DeviceFabricFixture {};

// Board n's identity: distinct per model and from every sample's (0x0002c90300a0..b0.. ranges).
BoardIds adapter_board(std::size_t n, const std::string& model) {
  return {.guid = 0x0002c90300c10000ull + (n << 8), .mac = 0x0002c9c10000ull + (n << 8), .vsd = "board " + model};
}

TEST_F(TodaysAdapterInband, IbfwmgrUpdateKeepsEachModelsBoardIdentity) {
  for (const auto& m : kInfiniBandAdapters)
    for (const char* v : {"old", "new"})
      ASSERT_TRUE(std::filesystem::exists(model_sample(m, v))) << m << "-" << v << " was not built";
  const auto images = dir_.path() / "images";
  std::filesystem::create_directories(images);
  std::vector<FabricDevice> devices;
  std::map<std::string, nlohmann::json> want;  // node -> the new sample's query
  for (std::size_t i = 0; i < kInfiniBandAdapters.size(); ++i) {
    const auto& m = kInfiniBandAdapters[i];
    const std::string node = "Hca" + std::to_string(i + 2);
    devices.push_back({node, m, board_image(dir_.path(), m + "-board", model_sample(m, "old"), adapter_board(i, m))});
    std::filesystem::copy_file(model_sample(m, "new"), images / (m + "-new.bin"));
    want[node] = flint_query({"-i", model_sample(m, "new").string()});
  }
  bring_up(devices);
  if (HasFatalFailure() || IsSkipped()) return;

  for (std::size_t i = 0; i < devices.size(); ++i) {
    SCOPED_TRACE(devices[i].model);
    const auto q = query(devices[i].node);
    const auto old = flint_query({"-i", model_sample(devices[i].model, "old").string()});
    EXPECT_EQ(q["fw_version"], old["fw_version"]) << q.dump(2);
    EXPECT_EQ(q["psid"], old["psid"]) << q.dump(2);
    EXPECT_EQ(q["base_guid"]["base"], hex16(adapter_board(i, devices[i].model).guid)) << q.dump(2);
  }

  const int updated = update_keeping_identity(images, "in-band");
  ASSERT_GE(updated, 0);
  EXPECT_EQ(updated, static_cast<int>(kInfiniBandAdapters.size()));

  for (std::size_t i = 0; i < devices.size(); ++i) {
    const FabricDevice& d = devices[i];
    SCOPED_TRACE(d.model);
    const BoardIds id = adapter_board(i, d.model);
    const auto q = query(d.node);
    EXPECT_EQ(q["fw_version"], want[d.node]["fw_version"]) << q.dump(2);
    EXPECT_EQ(q["psid"], want[d.node]["psid"]) << q.dump(2);
    EXPECT_EQ(q["base_guid"]["base"], hex16(id.guid)) << q.dump(2);
    EXPECT_EQ(q["base_mac"]["base"], hex16(id.mac)) << q.dump(2);
    EXPECT_EQ(q["device_vsd"], id.vsd) << q.dump(2);
  }
}

}  // namespace
}  // namespace openflint::test
