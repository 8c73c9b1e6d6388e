// mst web's firmware actions in-process: an uploaded image is queried, verified and checked
// against the device before a burn is offered (nothing written); the burn runs as a job with
// progress and leaves the device with the new version and its own GUIDs; an image that does not
// verify, or is for another device, is refused and changes nothing; identity edits take flint
// sg/sv's path; the configuration is mst config's; the reset is mst reset's; read-only refuses all.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "tests/support/TestSupport.h"
#include "tests/web/WebApiFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;


class WebFirmware : public WebApiFixture {
 protected:
  httplib::Result upload(std::size_t index, const std::string& bytes, const std::string& name = "new.bin") {
    return client_->Post(("/api/devices/" + std::to_string(index) + "/image?name=" + name).c_str(), with_token(), bytes,
                         "application/octet-stream");
  }
  json post(const std::string& path, const json& body, int status = 200) {
    auto res = client_->Post(path.c_str(), with_token(), body.dump(), "application/json");
    EXPECT_TRUE(res) << path;
    if (!res) return json();
    EXPECT_EQ(res->status, status) << path << ": " << res->body;
    return json::parse(res->body, nullptr, false);
  }
  // Polls a job until it ends; the stages it went through in `stages`.
  json finish(const std::string& job, std::set<std::string>* stages = nullptr) {
    for (int i = 0; i < 1200; ++i) {
      const json doc = get_json("/api/jobs/" + job);
      if (stages != nullptr && doc.contains("stage")) stages->insert(doc["stage"].get<std::string>());
      if (doc.value("state", "") != "running") return doc;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    ADD_FAILURE() << job << " did not end in 30 s";
    return json();
  }
  json flint_query(std::size_t index) {
    const auto q = run_tool("flint", {"-d", devices_[index], "q", "--json"});
    EXPECT_EQ(q.exit_code, 0) << q.err;
    return json::parse(q.out, nullptr, false);
  }
};

TEST_F(WebFirmware, AnUploadIsCheckedWithoutWritingThenBurnedWithProgressKeepingTheBoardsIdentity) {
  start();
  const json before = flint_query(0);
  const std::string flash_before = read_text(dir_ / "connectx4" / "flash.bin");
  const std::string image = read_text(sample_image("connectx4-new"));
  const auto checked = upload(0, image, "connectx4-new.bin");
  ASSERT_TRUE(checked);
  ASSERT_EQ(checked->status, 200) << checked->body;
  const json doc = json::parse(checked->body);
  const auto image_query = run_tool("flint", {"-i", sample_image("connectx4-new").string(), "q", "--json"});
  ASSERT_EQ(image_query.exit_code, 0) << image_query.err;
  json expected_image = json::parse(image_query.out);
  expected_image.erase("json_version");
  expected_image.erase("ok");
  EXPECT_EQ(doc["image"], expected_image);  // the `flint -i IMAGE q --json` document
  EXPECT_EQ(doc["preflight"]["current_fw_version"], before["fw_version"]);
  EXPECT_EQ(doc["preflight"]["new_fw_version"], expected_image["fw_version"]);
  EXPECT_EQ(doc["preflight"]["version_order"], "newer");
  EXPECT_EQ(doc["preflight"]["identity"]["uids_from"], "device") << doc["preflight"].dump();
  EXPECT_EQ(read_text(dir_ / "connectx4" / "flash.bin"), flash_before) << "the check wrote to the flash";

  const json started = post("/api/devices/0/burn", {{"upload", doc["upload"]}});
  ASSERT_TRUE(started.value("ok", false)) << started.dump();
  std::set<std::string> stages;
  const json job = finish(started["job"], &stages);
  ASSERT_EQ(job["state"], "done") << job.dump();
  EXPECT_EQ(job["result"]["new_fw_version"], expected_image["fw_version"]);
  EXPECT_TRUE(stages.size() >= 2) << "progress was not reported: " << json(stages).dump();
  const json after = flint_query(0);
  EXPECT_EQ(after["fw_version"], expected_image["fw_version"]);
  EXPECT_NE(after["fw_version"], before["fw_version"]);
  EXPECT_EQ(after["base_guid"], before["base_guid"]) << "the board lost its GUIDs";
  EXPECT_EQ(after["base_mac"], before["base_mac"]);
  json reported = job["result"]["device_query"];
  EXPECT_EQ(reported["fw_version"], after["fw_version"]);
  EXPECT_NE(audit().find("burned " + devices_[0] + ": FW " + expected_image["fw_version"].get<std::string>()), std::string::npos)
      << audit();
  // The list asks the burned device again; an upload is burned once.
  EXPECT_EQ(get_json("/api/devices")["devices"][0]["query"]["fw_version"], after["fw_version"]);
  post("/api/devices/0/burn", {{"upload", doc["upload"]}}, 404);

  // The reset runs the new firmware (mst reset's document).
  const json plan = get_json("/api/devices/0/reset");
  EXPECT_TRUE(plan["plan"]["blockers"].empty()) << plan.dump();
  const json reset = post("/api/devices/0/reset", json::object());
  EXPECT_EQ(reset["running_after"]["fw_version"], after["fw_version"]) << reset.dump();
  EXPECT_NE(audit().find("reset " + devices_[0]), std::string::npos) << audit();
}

TEST_F(WebFirmware, ImagesThatDoNotVerifyOrFitAnotherDeviceAreRefusedAndChangeNothing) {
  start();
  const std::string flash_before = read_text(dir_ / "connectx4" / "flash.bin");
  std::string broken = read_text(sample_image("connectx4-new"));
  for (std::size_t at = 0x10100; at < 0x11100; ++at) broken[at] = static_cast<char>(~broken[at]);  // in MAIN_CODE
  const auto bad = upload(0, broken, "broken.bin");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 422) << bad->body;
  EXPECT_EQ(json::parse(bad->body)["error"]["code"], "invalid image") << bad->body;
  const auto other = upload(0, read_text(sample_image("connectx3-new")), "connectx3.bin");
  ASSERT_TRUE(other);
  EXPECT_GE(other->status, 400) << other->body;
  EXPECT_NE(other->body.find("error"), std::string::npos);
  const auto junk = upload(0, std::string(100000, 'x'), "junk.bin");
  EXPECT_EQ(junk->status, 422) << junk->body;
  post("/api/devices/0/burn", {{"upload", "upload-1"}}, 404);  // nothing refused was kept
  EXPECT_EQ(read_text(dir_ / "connectx4" / "flash.bin"), flash_before);
  EXPECT_NE(audit().find("refused image broken.bin for " + devices_[0]), std::string::npos) << audit();
}

// An MFA2 package is told apart by its content: the board whose PSID the device's flash carries
// is taken out of it and checked like an image; a package without that PSID is refused.
TEST_F(WebFirmware, AnMfa2UploadGivesTheDevicesOwnBoard) {
  start();
  const std::string flash_before = read_text(dir_ / "connectx4" / "flash.bin");
  const auto package = dir_ / "fw.mfa2";
  auto made = run_tool("flint", {"archive", "create", "--format", "mfa2", "--bins", sample_image("connectx5-new").string(),
                                 sample_image("connectx4-new").string(), "-o", package.string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto checked = upload(0, read_text(package), "fw.mfa2");
  ASSERT_TRUE(checked);
  ASSERT_EQ(checked->status, 200) << checked->body;
  const json doc = json::parse(checked->body);
  const auto image_query = run_tool("flint", {"-i", sample_image("connectx4-new").string(), "q", "--json"});
  ASSERT_EQ(image_query.exit_code, 0) << image_query.err;
  const json expected = json::parse(image_query.out);
  EXPECT_EQ(doc["image"]["psid"], expected["psid"]) << doc.dump();
  EXPECT_EQ(doc["image"]["fw_version"], expected["fw_version"]) << doc.dump();
  EXPECT_EQ(doc["preflight"]["version_order"], "newer") << doc.dump();

  const auto other = dir_ / "cx5.mfa2";
  made = run_tool("flint", {"archive", "create", "--format", "mfa2", "--bins", sample_image("connectx5-new").string(),
                            "-o", other.string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto refused = upload(0, read_text(other), "cx5.mfa2");
  ASSERT_TRUE(refused);
  EXPECT_GE(refused->status, 400) << refused->body;
  EXPECT_NE(refused->body.find("no device with PSID " + expected["psid"].get<std::string>()), std::string::npos)
      << refused->body;
  EXPECT_EQ(read_text(dir_ / "connectx4" / "flash.bin"), flash_before) << "checking an upload wrote to the flash";
}

TEST_F(WebFirmware, IdentityEditsTakeFlintsSgAndSvPath) {
  start();
  const json started = post("/api/devices/0/identity", {{"guid", "0x0002c90300a0b000"}, {"mac", "0x0002c9a0b000"}});
  ASSERT_TRUE(started.value("ok", false)) << started.dump();
  const json job = finish(started["job"]);
  ASSERT_EQ(job["state"], "done") << job.dump();
  const json after = flint_query(0);
  EXPECT_EQ(after["base_guid"]["base"], "0x0002c90300a0b000") << after.dump();
  EXPECT_EQ(job["result"]["base_guid"], after["base_guid"]);
  // FS2 (ConnectX-3): the VSD is in the image, re-burned failsafe.
  const json vsd = finish(post("/api/devices/1/identity", {{"vsd", "rack 7 slot 3"}})["job"]);
  ASSERT_EQ(vsd["state"], "done") << vsd.dump();
  EXPECT_NE(vsd["result"]["method"].get<std::string>().find("failsafe burn"), std::string::npos) << vsd.dump();
  EXPECT_EQ(flint_query(1)["image_vsd"], "rack 7 slot 3");
  post("/api/devices/0/identity", {{"mac", "0x0002c9a0b000"}}, 400);  // a MAC needs its GUID
  post("/api/devices/0/identity", {{"guid", "0x1"}, {"mac", "0x10002c9a0b000"}}, 400);  // 49 bits
}

TEST_F(WebFirmware, TheConfigurationIsMstConfigsAndASetIsWrittenForTheNextBoot) {
  start();
  json doc = get_json("/api/devices/0/config");
  const auto cli = run_tool("mst", {"config", devices_[0], "query", "--json"});
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  json expected = json::parse(cli.out);
  EXPECT_EQ(doc, expected);
  ASSERT_FALSE(doc["parameters"].empty());
  const json set = post("/api/devices/0/config", {{"set", {"SRIOV_EN=True", "NUM_OF_VFS=16"}}});
  ASSERT_TRUE(set.value("ok", false)) << set.dump();
  EXPECT_EQ(set["changed"].size(), 2u) << set.dump();
  const auto after = run_tool("mst", {"config", devices_[0], "query", "SRIOV_EN", "NUM_OF_VFS", "--json"});
  const json rows = json::parse(after.out)["parameters"];
  EXPECT_EQ(rows[0]["next"]["value"], 1) << after.out;
  EXPECT_EQ(rows[1]["next"]["value"], 16) << after.out;
  EXPECT_EQ(post("/api/devices/0/config", {{"set", {"SRIOV_EN=True"}}})["changed"].size(), 0u);  // already so
  post("/api/devices/0/config", {{"set", {"NO_SUCH_PARAMETER=1"}}}, 400);
  EXPECT_NE(audit().find("configured " + devices_[0] + ":"), std::string::npos) << audit();
}

TEST_F(WebFirmware, ReadOnlyRefusesBurnsIdentityResetAndConfiguration) {
  start(/*read_only=*/true);
  const std::string flash_before = read_text(dir_ / "connectx4" / "flash.bin");
  const auto up = upload(0, read_text(sample_image("connectx4-new")));
  ASSERT_TRUE(up);
  EXPECT_EQ(up->status, 403) << up->body;
  post("/api/devices/0/identity", {{"vsd", "x"}}, 403);
  post("/api/devices/0/reset", json::object(), 403);
  post("/api/devices/0/config", {{"set", {"SRIOV_EN=True"}}}, 403);
  post("/api/devices/0/burn", {{"upload", "upload-1"}}, 403);
  EXPECT_EQ(read_text(dir_ / "connectx4" / "flash.bin"), flash_before);
  // Reading stays allowed.
  EXPECT_TRUE(get_json("/api/devices/0/config")["ok"].get<bool>());
  EXPECT_TRUE(get_json("/api/devices/0/reset")["ok"].get<bool>());
}

TEST_F(WebFirmware, OnlyTheUploadTakesLargeBodies) {
  start();
  const auto big = client_->Post("/api/devices/0/config", with_token(), std::string(100 * 1024, ' '), "application/json");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  const auto image = upload(0, read_text(sample_image("connectx4-new")));  // megabytes
  ASSERT_TRUE(image);
  EXPECT_EQ(image->status, 200) << image->body;
}

}  // namespace
}  // namespace openflint::test
