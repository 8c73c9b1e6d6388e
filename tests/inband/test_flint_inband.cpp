// Our flint over MADs on an ibsim fabric: q, v, burn, ri, reset (switch), running FW from MGIR.
#include <nlohmann/json.hpp>

#include "image/FirmwareImage.h"
#include "tests/inband/DeviceFabricFixture.h"

namespace openflint::test {
namespace {

class FlintInband : public DeviceFabricFixture {
 protected:
  std::filesystem::path save(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    const auto path = dir_.path() / name;
    write_file(path, bytes);
    return path;
  }
};

std::string running_version(const std::string& query_json) {
  const auto j = nlohmann::json::parse(query_json, nullptr, false);
  if (j.is_discarded() || !j.contains("running") || j["running"].is_null()) return "none";
  return j["running"]["fw_version"].is_null() ? "null" : j["running"]["fw_version"].get<std::string>();
}

TEST_F(FlintInband, QueryVerifyBurnReadImageOnAnAdapter) {
  const auto a = save("a.bin", small_fs3_image(10));
  const auto b = save("b.bin", small_fs3_image(20));
  bring_up({{"Hca2", "connectx4", a}});
  if (HasFatalFailure() || IsSkipped()) return;

  auto q = flint("Hca2", {"q"});
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_NE(q.out.find("FW Version:            12.10.1000"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("FW Version(Running):   12.10.1000"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("ConnectX-4"), std::string::npos) << q.out;
  auto qj = flint("Hca2", {"q", "--json"});
  ASSERT_EQ(qj.exit_code, 0) << qj.err;
  EXPECT_EQ(running_version(qj.out), "12.10.1000");
  EXPECT_NE(qj.out.find("\"psid\": \"MT_2190110032\""), std::string::npos) << qj.out;

  auto v = flint("Hca2", {"v"});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("Image is bootable"), std::string::npos) << v.out;

  // ri while the image sits at 0 (ri of a copy in the second half is a known gap of ri).
  const auto out = dir_.path() / "ri.bin";
  auto ri = flint("Hca2", {"ri", out.string()});
  ASSERT_EQ(ri.exit_code, 0) << ri.out << ri.err;
  const auto back = read_file(out);
  auto query = query_image(back);
  ASSERT_TRUE(query) << query.error().message();
  ASSERT_TRUE(query->fw_version);
  EXPECT_EQ(query->fw_version->to_string(), "12.10.1000");
  auto verified = verify_image(back);
  ASSERT_TRUE(verified) << verified.error().message();
  EXPECT_TRUE(verified->bootable());

  auto burn = flint("Hca2", {"-i", b.string(), "burn", "-y"});
  ASSERT_EQ(burn.exit_code, 0) << burn.out << burn.err;
  auto q2 = flint("Hca2", {"q", "--json"});
  ASSERT_EQ(q2.exit_code, 0) << q2.err;
  EXPECT_NE(q2.out.find("\"fw_version\": \"12.20.1000\""), std::string::npos) << q2.out;
  EXPECT_EQ(running_version(q2.out), "12.10.1000") << "an adapter keeps running the old FW until reset";

  auto reset = flint("Hca2", {"reset"});
  EXPECT_NE(reset.exit_code, 0) << "in-band adapters cannot be reset: " << reset.out;
  EXPECT_NE(reset.err.find("switches only"), std::string::npos) << reset.err;

  auto device = stop_and_load("Hca2");
  ASSERT_NE(device, nullptr);
  device->power_cycle();
  ASSERT_FALSE(device->boot_state().recovery);
  EXPECT_EQ(device->boot_state().running->fw_version->minor, 20);
}

TEST_F(FlintInband, SwitchBurnAndResetRunsTheNewFirmware) {
  const auto a = save("sa.bin", small_fs3_image(10, "MT_1780110032", 0x249));
  const auto b = save("sb.bin", small_fs3_image(30, "MT_1780110032", 0x249));
  bring_up({{"Switch1", "spectrum", a}});
  if (HasFatalFailure() || IsSkipped()) return;
  auto burn = flint("Switch1", {"-i", b.string(), "burn", "-y"});
  ASSERT_EQ(burn.exit_code, 0) << burn.out << burn.err;
  auto before = flint("Switch1", {"q", "--json"});
  EXPECT_EQ(running_version(before.out), "12.10.1000");
  auto reset = flint("Switch1", {"reset"});
  ASSERT_EQ(reset.exit_code, 0) << reset.out << reset.err;
  EXPECT_NE(reset.out.find("FW Version(Running):   12.30.1000"), std::string::npos) << reset.out;
  auto after = flint("Switch1", {"q", "--json"});
  EXPECT_EQ(running_version(after.out), "12.30.1000");
  auto device = stop_and_load("Switch1");
  ASSERT_NE(device, nullptr);
  EXPECT_FALSE(device->boot_state().recovery);
  EXPECT_EQ(device->boot_state().running->fw_version->minor, 30) << "the responder ran the boot ROM on SwReset";
}

TEST_F(FlintInband, BlankDeviceReportsRecoveryAndNoImage) {
  bring_up({{"Hca2", "connectx4", {}}});
  if (HasFatalFailure() || IsSkipped()) return;
  auto q = flint("Hca2", {"q", "--json"});
  EXPECT_NE(q.exit_code, 0);
  EXPECT_NE(q.out.find("\"recovery\": true"), std::string::npos) << q.out;
}

}  // namespace
}  // namespace openflint::test
