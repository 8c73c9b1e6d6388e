// openflint.firmware.fabric_update on a management node of a simulated InfiniBand fabric (ibsim,
// hcasim devices behind responders): ansible-playbook runs as a client of the fabric.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "tests/ansible/AnsibleFixture.h"
#include "tests/inband/DeviceFabricFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

class FabricUpdate : public DeviceFabricFixture {};

TEST_F(FabricUpdate, CheckModeUpdateAndIdempotence) {
  if (IsSkipped()) return;
  if (!have_program("ansible-playbook")) GTEST_SKIP() << "ansible-playbook is not installed";
  const auto images = dir_.path() / "images";
  std::filesystem::create_directories(images);
  const auto cx4_a = dir_.path() / "cx4-a.bin";
  const auto sw_a = dir_.path() / "sw-a.bin";
  write_file(cx4_a, small_fs3_image(10));
  write_file(sw_a, small_fs3_image(10, "MT_1780110032", 0x249));
  write_file(images / "cx4-b.bin", small_fs3_image(20));
  write_file(images / "sw-b.bin", small_fs3_image(30, "MT_1780110032", 0x249));
  bring_up({{"Switch1", "spectrum", sw_a}, {"Hca2", "connectx4", cx4_a}});
  if (HasFatalFailure() || IsSkipped()) return;
  const auto ansible_dir = dir_.path() / "ansible";
  std::filesystem::create_directories(ansible_dir);
  ASSERT_TRUE(install_collection(ansible_dir));

  // ansible-playbook runs on Hca1 (the fabric's client environment), the inventory is this host.
  const auto report = ansible_dir / "fabric.json";
  std::vector<std::string> argv{"env"};
  for (const auto& e : ansible_env(ansible_dir)) argv.push_back(e);
  for (const std::string arg :
       {"ansible-playbook", "-i", "mgmt,", "-c", "local", "-e", "ansible_python_interpreter=/usr/bin/python3"})
    argv.push_back(arg);
  argv.insert(argv.end(), {(std::filesystem::path(OPENFLINT_SOURCE_DIR) / "tests/ansible/playbooks/fabric.yml").string(),
                           "-e", "openflint_bin_dir=" + bin("ibfwmgr").parent_path().string(), "-e",
                           "images_dir=" + images.string(), "-e", "report=" + report.string()});
  auto r = run(argv);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::ifstream in(report);
  const json doc = json::parse(in, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << r.out;

  EXPECT_EQ(doc["inventory"]["nodes"].size(), 3u) << doc["inventory"].dump(2);  // switch, Hca1 (local), Hca2
  EXPECT_FALSE(doc["inventory"]["changed"].get<bool>());
  // Check mode: both devices would be updated; nothing is written (the update below burns both).
  EXPECT_TRUE(doc["dry"]["changed"].get<bool>());
  EXPECT_EQ(doc["dry"]["counts"]["would-update"], 2) << doc["dry"].dump(2);
  EXPECT_TRUE(doc["update"]["changed"].get<bool>());
  EXPECT_EQ(doc["update"]["counts"]["updated"], 2) << doc["update"].dump(2);
  for (const auto& node : doc["update"]["nodes"]) {
    if (node["lid"] == lids_["Switch1"]) {
      EXPECT_EQ(node["image_version"], "12.30.1000");
      EXPECT_EQ(node["running_after"], "12.30.1000") << "the switch is reset in-band";
    }
    if (node["lid"] == lids_["Hca2"]) {
      EXPECT_EQ(node["image_version"], "12.20.1000");
    }
  }
  // The second run finds both flashes on the images' versions.
  EXPECT_FALSE(doc["again"]["changed"].get<bool>()) << doc["again"].dump(2);
  EXPECT_EQ(doc["again"]["counts"]["up-to-date"], 2) << doc["again"].dump(2);

  // A wrong archive path with a CA that does not exist: the archive is looked at before any
  // sweep, so the module reports the missing archive, not the discovery failure.
  const auto missing = (dir_.path() / "missing.mfa").string();
  std::vector<std::string> adhoc{"env"};
  for (const auto& e : ansible_env(ansible_dir)) adhoc.push_back(e);
  for (const std::string arg : {"ansible", "localhost", "-i", "localhost,", "-c", "local", "-e",
                                "ansible_python_interpreter=/usr/bin/python3", "-m", "openflint.firmware.fabric_update", "-a"})
    adhoc.push_back(arg);
  adhoc.push_back("archive=" + missing + " ca=nosuch_ca0 bin_dir=" + bin("ibfwmgr").parent_path().string());
  const auto failed = run(adhoc);
  EXPECT_NE(failed.exit_code, 0) << failed.out << failed.err;
  EXPECT_NE(failed.out.find("cannot open firmware package " + missing), std::string::npos) << failed.out << failed.err;
  EXPECT_EQ(failed.out.find("discovery"), std::string::npos) << failed.out;
}

}  // namespace
}  // namespace openflint::test
