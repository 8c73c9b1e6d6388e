// ibfwmgr update --archive X.mfa2: an MFA2 package (flint archive create) is taken by content like an MFA archive; each node gets its PSID's image.
#include <nlohmann/json.hpp>

#include "tests/inband/DeviceFabricFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

class IbfwmgrMfa2 : public DeviceFabricFixture {};

TEST_F(IbfwmgrMfa2, UpdatesFromAnMfa2Package) {
  const auto cx4_a = dir_.path() / "cx4-a.bin";
  const auto sw_a = dir_.path() / "sw-a.bin";
  const auto cx4_b = dir_.path() / "cx4-b.bin";
  const auto sw_b = dir_.path() / "sw-b.bin";
  write_file(cx4_a, small_fs3_image(10));
  write_file(sw_a, small_fs3_image(10, "MT_1780110032", 0x249));
  write_file(cx4_b, small_fs3_image(20));
  write_file(sw_b, small_fs3_image(30, "MT_1780110032", 0x249));
  const auto package = dir_.path() / "fw.mfa2";
  // Made before the fabric is up: flint runs as a plain command, not as a fabric client.
  auto made = run_tool("flint", {"archive", "create", "--format", "mfa2", "--bins", cx4_b.string(), sw_b.string(), "-o",
                                 package.string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  bring_up({{"Switch1", "spectrum", sw_a}, {"Hca2", "connectx4", cx4_a}});
  if (HasFatalFailure() || IsSkipped()) return;

  auto r = run({bin("ibfwmgr").string(), "update", "--archive", package.string(), "--json", "-y", "--reset"});
  const json up = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(up.is_discarded()) << r.out << r.err;
  std::map<int, const json*> by_lid;
  for (const auto& n : up["nodes"]) by_lid[n["lid"].get<int>()] = &n;
  ASSERT_TRUE(by_lid.count(lids_["Switch1"]) && by_lid.count(lids_["Hca2"])) << up.dump(2);
  const json& sw = *by_lid[lids_["Switch1"]];
  EXPECT_EQ(sw["status"], "updated") << sw.dump(2);
  EXPECT_EQ(sw["image_version"], "12.30.1000");
  EXPECT_NE(sw["image"].get<std::string>().find("fw.mfa2 (device MT_1780110032)"), std::string::npos) << sw.dump(2);
  const json& hca = *by_lid[lids_["Hca2"]];
  EXPECT_EQ(hca["status"], "updated") << hca.dump(2);
  EXPECT_EQ(hca["image_version"], "12.20.1000");

  // A package that is neither MFA nor MFA2 is refused before the fabric is touched (exit 3).
  auto junk = run({bin("ibfwmgr").string(), "update", "--archive", cx4_b.string(), "-y"});
  EXPECT_EQ(junk.exit_code, 3) << junk.err;
  EXPECT_NE(junk.err.find("not a firmware package"), std::string::npos) << junk.err;
}

}  // namespace
}  // namespace openflint::test
