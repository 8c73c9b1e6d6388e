// Safety facts (fwops/SafetyFacts.h) as `flint -d DEV q --json` and `mst status --json` report
// them, across kinds of devices: an FS2 adapter (ConnectX-3), FS3 (ConnectX-4, gateway and MCC
// firmware), FS4 adapter and switch (ConnectX-5, Spectrum-2), one in flash recovery, one whose
// burned image is not activated yet, and one reached through `mst server`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "mtcr/registers/MgirRegister.h"
#include "tests/pci_cli/PciServeFixture.h"
#include "tests/remote_server/ServerFixture.h"
#include "tests/support/LiveDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kFacts[] = {"dual_image", "self_recovery", "update_through_firmware", "needs_activation",
                                  "signed_images_required"};

json parsed(const CommandResult& r) {
  json j = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << "not JSON: " << r.out << r.err;
  return j;
}

// Every fact has a value (true, false or "unknown"), a source and a detail.
void expect_well_formed(const json& safety) {
  ASSERT_TRUE(safety.is_object()) << safety.dump(2);
  EXPECT_EQ(safety.size(), std::size(kFacts)) << safety.dump(2);
  for (const char* name : kFacts) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(safety.contains(name)) << safety.dump(2);
    const json& f = safety[name];
    EXPECT_TRUE(f["value"].is_boolean() || f["value"] == "unknown") << f.dump();
    EXPECT_FALSE(f["source"].get<std::string>().empty()) << f.dump();
    EXPECT_FALSE(f["detail"].get<std::string>().empty()) << f.dump();
  }
}

// Whether an image file's firmware takes updates through MCC (IMAGE_INFO mcc_en), as flint reads it.
bool image_takes_mcc(const fs::path& image) {
  const json q = parsed(run_tool("flint", {"-i", image.string(), "q", "--json"}));
  return q.value("component_update", false);
}

class SafetyFacts : public ::testing::Test {
 protected:
  std::string create(const std::string& name, const std::string& model, const fs::path& image = {}) {
    const fs::path dir = dir_ / name;
    std::vector<std::string> args{"create", "--model", model, dir.string()};
    if (!image.empty()) args.insert(args.end(), {"--image", image.string()});
    const auto r = run_tool("hcasim", args);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return "sim:" + dir.string();
  }
  // The safety object of `flint -d DEV q --json` (checked well formed), with the whole document;
  // the query succeeds unless `fails` (a flash with no image).
  json safety_of(const std::string& dev, json* doc = nullptr, bool fails = false) {
    const auto r = run_tool("flint", {"-d", dev, "q", "--json"});
    if (fails) {
      EXPECT_NE(r.exit_code, 0) << r.out << r.err;
    } else {
      EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    }
    json j = parsed(r);
    if (doc) *doc = j;
    expect_well_formed(j["safety"]);
    return j["safety"];
  }
  TempDir dir_;
};

TEST_F(SafetyFacts, Fs2ConnectX3HasTwoCopiesAndNoFirmwareUpdate) {
  const auto dev = create("cx3", "connectx3", sample_image("connectx3-old"));
  const json s = safety_of(dev);
  EXPECT_EQ(s["dual_image"]["value"], true) << s.dump(2);
  EXPECT_EQ(s["dual_image"]["source"], "flash");
  EXPECT_EQ(s["self_recovery"]["value"], true) << s.dump(2);
  EXPECT_EQ(s["self_recovery"]["source"], "boot rule");
  EXPECT_EQ(s["update_through_firmware"]["value"], false) << s.dump(2);
  EXPECT_EQ(s["update_through_firmware"]["source"], "catalog");  // ConnectX-3 firmware has no MCC
  EXPECT_EQ(s["needs_activation"]["value"], false) << s.dump(2);
}

// The samples: FS3 and FS4, an adapter and a switch. The firmware path is what the running
// image's IMAGE_INFO says (the simulated firmware lists MCC in MCAM only then).
TEST_F(SafetyFacts, SamplesOfFs3AndFs4AdaptersAndSwitches) {
  for (const std::string model : {"connectx4", "connectx5", "spectrum2"}) {
    SCOPED_TRACE(model);
    const fs::path image = sample_image(model + "-old");
    const auto dev = create(model, model, image);
    json doc;
    const json s = safety_of(dev, &doc);
    EXPECT_EQ(s["dual_image"]["value"], true) << s.dump(2);
    EXPECT_NE(s["dual_image"]["detail"].get<std::string>().find("the other slot at"), std::string::npos) << s.dump(2);
    EXPECT_EQ(s["self_recovery"]["value"], true) << s.dump(2);
    const bool mcc = image_takes_mcc(image);
    EXPECT_EQ(s["update_through_firmware"]["value"], mcc) << s.dump(2);
    EXPECT_EQ(s["update_through_firmware"]["source"], mcc ? "MCAM, MCQI" : "MCAM") << s.dump(2);
    EXPECT_EQ(s["needs_activation"]["value"], false) << s.dump(2);
    EXPECT_EQ(doc["running"]["fw_version"], doc["fw_version"]) << doc.dump(2);
    // The simulated firmware answers MGIR with fw_info.secured clear.
    EXPECT_EQ(s["signed_images_required"]["value"], false) << s.dump(2);
    EXPECT_EQ(s["signed_images_required"]["source"], "MGIR");
  }
}

TEST_F(SafetyFacts, FirmwareWithMccTakesUpdatesThroughItself) {
  const fs::path image = dir_ / "mcc-28.bin";
  write_file(image, mcc_fs3(28));
  const auto dev = create("live", "connectx4", image);
  const json s = safety_of(dev);
  EXPECT_EQ(s["update_through_firmware"]["value"], true) << s.dump(2);
  EXPECT_EQ(s["update_through_firmware"]["source"], "MCAM, MCQI");
  EXPECT_NE(s["update_through_firmware"]["detail"].get<std::string>().find("up to 0x"), std::string::npos) << s.dump(2);
}

// A burn leaves the old firmware running until a reset: the flash needs activation, then not.
TEST_F(SafetyFacts, BurnedButNotActivatedUntilReset) {
  const auto dev = create("cx5", "connectx5", sample_image("connectx5-old"));
  const auto b = run_tool("flint", {"-d", dev, "-i", sample_image("connectx5-new").string(), "-y", "burn"});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  json doc;
  json s = safety_of(dev, &doc);
  ASSERT_NE(doc["running"]["fw_version"], doc["fw_version"]) << doc.dump(2);
  EXPECT_EQ(s["needs_activation"]["value"], true) << s.dump(2);
  const std::string detail = s["needs_activation"]["detail"];
  EXPECT_NE(detail.find("flash " + doc["fw_version"].get<std::string>()), std::string::npos) << detail;
  EXPECT_NE(detail.find("running " + doc["running"]["fw_version"].get<std::string>()), std::string::npos) << detail;
  EXPECT_EQ(s["dual_image"]["value"], true) << s.dump(2);  // the new copy in the other slot

  const auto reset = run_tool("flint", {"-d", dev, "reset"});
  ASSERT_EQ(reset.exit_code, 0) << reset.out << reset.err;
  s = safety_of(dev, &doc);
  EXPECT_EQ(doc["running"]["fw_version"], doc["fw_version"]) << doc.dump(2);
  EXPECT_EQ(s["needs_activation"]["value"], false) << s.dump(2);
}

// No image: nothing boots, no second copy, tools write through the gateway; what the firmware
// would say about signing cannot be asked.
TEST_F(SafetyFacts, FlashRecoveryDevice) {
  const auto dev = create("rec", "connectx5");
  json doc;
  const json s = safety_of(dev, &doc, true);
  EXPECT_EQ(doc["ok"], false);
  EXPECT_EQ(s["dual_image"]["value"], false) << s.dump(2);
  EXPECT_EQ(s["self_recovery"]["value"], false) << s.dump(2);
  EXPECT_EQ(s["update_through_firmware"]["value"], false) << s.dump(2);
  EXPECT_EQ(s["update_through_firmware"]["source"], "boot state") << s.dump(2);
  EXPECT_EQ(s["needs_activation"]["value"], false) << s.dump(2);
  EXPECT_EQ(s["signed_images_required"]["value"], "unknown") << s.dump(2);
}

// The text query asks nothing more of the device (recorded sessions replay it unchanged).
TEST_F(SafetyFacts, TextQueryIsUnchanged) {
  const auto dev = create("cx4", "connectx4", sample_image("connectx4-old"));
  const auto q = run_tool("flint", {"-d", dev, "q"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(q.out.find("safety"), std::string::npos) << q.out;
}

TEST(MgirSecurityBits, SecuredAndSignedFwRoundTripAtFwInfoBits24And25) {
  MgirRegister m;
  m.major = 16;
  m.minor = 35;
  m.subminor = 2000;
  m.secured = true;
  auto bytes = m.encode();
  EXPECT_EQ(bytes[0x20], 0x01);  // bit 24 of the big-endian fw_info dword
  auto back = MgirRegister::decode(bytes);
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->secured);
  EXPECT_FALSE(back->signed_fw);
  m.secured = false;
  m.signed_fw = true;
  bytes = m.encode();
  EXPECT_EQ(bytes[0x20], 0x02);
  back = MgirRegister::decode(bytes);
  ASSERT_TRUE(back);
  EXPECT_FALSE(back->secured);
  EXPECT_TRUE(back->signed_fw);
  EXPECT_EQ(back->minor, 35);
}

// mst status --json: each served function's facts, the same as flint's for that device.
class SafetyFactsPci : public PciServeFixture {};

TEST_F(SafetyFactsPci, MstStatusJsonCarriesEachDevicesFacts) {
  const auto cx5 = create_device("cx5", "connectx5", sample_image("connectx5-old"));
  const auto cx3 = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  if (!serve({cx5, cx3})) return;
  const auto r = run_command({bin("mst").string(), "status", "--json"}, tool_env());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = parsed(r);
  ASSERT_EQ(doc["pci"].size(), 2u) << doc.dump(2);
  for (const auto& d : doc["pci"]) {
    SCOPED_TRACE(d["bdf"].get<std::string>());
    ASSERT_TRUE(d.contains("safety")) << d.dump(2);
    expect_well_formed(d["safety"]);
    EXPECT_EQ(d["safety"]["dual_image"]["value"], true) << d.dump(2);
    EXPECT_EQ(d["safety"]["needs_activation"]["value"], false) << d.dump(2);
    // flint through the same served function reports the same facts.
    const auto q = flint({"-d", d["mst_name"].get<std::string>(), "q", "--json"});
    ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
    const json fq = parsed(q);
    for (const char* name : kFacts) EXPECT_EQ(fq["safety"][name]["value"], d["safety"][name]["value"]) << name;
  }
  const auto text = run_command({bin("mst").string(), "status"}, tool_env());  // text: no flash reads, no facts
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.find("safety"), std::string::npos) << text.out;
}

// Through `mst server`: the flash and the register channel are the server's.
class SafetyFactsRemote : public ServerFixture {};

TEST_F(SafetyFactsRemote, RemoteDeviceReportsItsFacts) {
  const auto port = start_server();
  ASSERT_NE(port, 0);
  const std::string name = "127.0.0.1:" + std::to_string(port) + "," + remote_name();
  const auto q = run_tool("flint", {"-d", name, "q", "--json"});
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  const json doc = parsed(q);
  expect_well_formed(doc["safety"]);
  EXPECT_EQ(doc["safety"]["dual_image"]["value"], true) << doc.dump(2);
  EXPECT_EQ(doc["safety"]["update_through_firmware"]["value"], image_takes_mcc(sample_image("connectx4-old")));
  EXPECT_EQ(doc["safety"]["needs_activation"]["value"], false) << doc.dump(2);
  EXPECT_EQ(doc["safety"]["signed_images_required"]["source"], "MGIR");
  EXPECT_EQ(doc["safety"]["signed_images_required"]["value"], false) << doc.dump(2);  // our server carries MGIR
}

}  // namespace
}  // namespace openflint::test
