// mst web's API in-process (web/WebServer over simulated devices, an httplib client): the pages'
// documents are the CLIs' --json documents; the token, the host check, cross-site writes, '..',
// oversized bodies, read-only mode, the allow-list rule and field writes.
#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <fstream>
#include <thread>

#include "tests/support/TestSupport.h"
#include "tests/web/WebApiFixture.h"
#include "web/AccessToken.h"
#include "web/WebServer.h"

namespace openflint::test {
namespace {

using nlohmann::json;

class WebApi : public WebApiFixture {};

TEST_F(WebApi, TheDeviceListHoldsFlintsQueryDocumentOfEachDevice) {
  start();
  const json doc = get_json("/api/devices");
  ASSERT_TRUE(doc["ok"].get<bool>()) << doc.dump();
  EXPECT_EQ(doc["json_version"], 1);
  ASSERT_EQ(doc["devices"].size(), 3u);
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    const auto cli = run_tool("flint", {"-d", devices_[i], "q", "--json"});
    ASSERT_EQ(cli.exit_code, 0) << cli.err;
    json expected = json::parse(cli.out);
    expected.erase("json_version");
    EXPECT_EQ(doc["devices"][i]["name"], devices_[i]);
    EXPECT_EQ(doc["devices"][i]["query"], expected) << devices_[i];
  }
}

TEST_F(WebApi, TheListKeepsItsQueriesUntilAskedAgain) {
  start();
  const json first = get_json("/api/devices");
  const json again = get_json("/api/devices");
  for (std::size_t i = 0; i < devices_.size(); ++i) EXPECT_EQ(again["devices"][i]["queried_at"], first["devices"][i]["queried_at"]);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  const json fresh = get_json("/api/devices?refresh=1");
  for (std::size_t i = 0; i < devices_.size(); ++i)
    EXPECT_GT(fresh["devices"][i]["queried_at"].get<long long>(), first["devices"][i]["queried_at"].get<long long>());
}

TEST_F(WebApi, TheRegisterDocumentIsMstDumpsAndTheDumpTextIsMstDumpsLines) {
  start();
  json doc = get_json("/api/devices/0/registers");
  const auto cli = run_tool("mst", {"dump", "-v", devices_[0], "--json"});
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  json expected = json::parse(cli.out);
  for (json* d : {&doc, &expected}) d->erase("seconds");  // the time the reads took
  EXPECT_EQ(doc, expected);
  const auto text = client_->Get("/api/devices/0/dump.txt", with_token());
  ASSERT_TRUE(text);
  EXPECT_EQ(text->body, run_tool("mst", {"dump", devices_[0]}).out);
  bool hw_id = false;
  for (const auto& r : doc["named"]) hw_id = hw_id || (r["name"] == "hw_id" && r["fields"]["hw_id"] == "0x209");
  EXPECT_TRUE(hw_id) << doc["named"].dump();
}

TEST_F(WebApi, TheFlashPageHasFlintsVerifyDocumentAndTheFlashBytes) {
  start();
  for (const std::size_t i : {std::size_t{0}, std::size_t{2}}) {
    const json doc = get_json("/api/devices/" + std::to_string(i) + "/verify");
    const auto cli = run_tool("flint", {"-d", devices_[i], "v", "--json"});
    ASSERT_EQ(cli.exit_code, 0) << cli.err;
    json expected = json::parse(cli.out);
    EXPECT_EQ(doc, expected) << devices_[i];
    const json bytes = get_json("/api/devices/" + std::to_string(i) + "/flash?offset=0x0&length=64");
    ASSERT_TRUE(bytes["ok"].get<bool>()) << bytes.dump();
    std::ifstream flash(dir_ / (i == 0 ? "connectx4" : "mt47396") / "flash.bin", std::ios::binary);
    std::string head(64, '\0');
    flash.read(head.data(), 64);
    std::string hex;
    for (const char c : head) {
      char two[3];
      std::snprintf(two, sizeof two, "%02x", static_cast<unsigned char>(c));
      hex += two;
    }
    EXPECT_EQ(bytes["hex"], hex) << devices_[i];
  }
  const json cx4 = get_json("/api/devices/0/flash?offset=0&length=4");
  EXPECT_EQ(cx4["hex"], "4d544657");  // "MTFW", the FS3 magic
  for (const char* bad : {"/api/devices/0/flash?offset=0&length=5000", "/api/devices/0/flash?offset=0x1000000&length=16",
                          "/api/devices/0/flash?offset=zz"}) {
    const auto res = client_->Get(bad, with_token());
    ASSERT_TRUE(res) << bad;
    EXPECT_EQ(res->status, 400) << bad << ": " << res->body;
  }
}

TEST_F(WebApi, EveryRequestNeedsTheTokenAndTheUrlSetsACookie) {
  start();
  for (const char* path : {"/", "/device", "/assets/app.js", "/api/devices", "/api/devices/0/registers"}) {
    const auto res = client_->Get(path);
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, 403) << path;
  }
  const auto wrong = client_->Get("/api/devices", {{"X-Openflint-Token", std::string(32, '0')}});
  EXPECT_EQ(wrong->status, 403);
  const std::string url = server_->url();
  const auto page = client_->Get(url.substr(url.find("/?")).c_str());
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<table id=\"devices\">"), std::string::npos);
  const std::string cookie = page->get_header_value("Set-Cookie");
  EXPECT_NE(cookie.find("HttpOnly"), std::string::npos) << cookie;
  EXPECT_NE(cookie.find("SameSite=Strict"), std::string::npos) << cookie;
  const auto with_cookie = client_->Get("/assets/app.js", {{"Cookie", "openflint_token=" + server_->token()}});
  EXPECT_EQ(with_cookie->status, 200);
}

TEST_F(WebApi, AFieldWriteChangesTheDeviceAndIsAudited) {
  start();
  const auto res = post_field(R"({"address": "0xf0000", "field": "boot_address", "value": "0x10"})", with_token());
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  const auto read = run_tool("mst", {"mread", devices_[0], "0xf0000"});
  EXPECT_EQ(read.out, "0x000f0000 0x00001000\n") << read.err;
  EXPECT_NE(audit().find("wrote " + devices_[0] + " 0x000f0000 (boot_address.boot_address) 0x00000000 -> 0x00001000"),
            std::string::npos)
      << audit();
}

TEST_F(WebApi, CrossSiteAndTokenlessWritesAreRefusedAndChangeNothing) {
  start();
  const std::string body = R"({"address": "0xf0000", "field": "boot_address", "value": "0x2000"})";
  httplib::Headers cross = with_token();
  cross.emplace("Origin", "http://evil.example");
  const std::vector<std::pair<std::string, httplib::Headers>> attempts = {
      {"cross-site origin", cross},
      {"cookie only (a form post)", {{"Cookie", "openflint_token=" + server_->token()}}},
      {"cross-site fetch", {{"X-Openflint-Token", server_->token()}, {"Sec-Fetch-Site", "cross-site"}}},
      {"no token", {}}};
  for (const auto& [what, headers] : attempts) {
    const auto res = post_field(body, headers);
    ASSERT_TRUE(res) << what;
    EXPECT_EQ(res->status, 403) << what << ": " << res->body;
  }
  EXPECT_EQ(run_tool("mst", {"mread", devices_[0], "0xf0000"}).out, "0x000f0000 0x00000000\n");
  EXPECT_NE(audit().find("refused POST /api/devices/0/field: cross-site request from http://evil.example"), std::string::npos)
      << audit();
}

TEST_F(WebApi, ReadOnlyRefusesWrites) {
  start(/*read_only=*/true);
  EXPECT_TRUE(get_json("/api/devices")["read_only"].get<bool>());
  const auto res = post_field(R"({"address": "0xf0000", "field": "boot_address", "value": "0x3000"})", with_token());
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 403) << res->body;
  EXPECT_NE(res->body.find("read-only"), std::string::npos) << res->body;
  EXPECT_EQ(run_tool("mst", {"mread", devices_[0], "0xf0000"}).out, "0x000f0000 0x00000000\n");
}

TEST_F(WebApi, RegistersWhoseReadTakesALockAreNotWrittenAndBadWritesAreNamed) {
  start();
  const json doc = get_json("/api/devices/0/registers");
  ASSERT_FALSE(doc["skipped"].empty()) << "the catalog names no lock register for ConnectX-4";
  const std::string locked = doc["skipped"][0]["address"];
  const auto res = post_field(R"({"address": ")" + locked + R"(", "value": "0"})", with_token());
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 400) << res->body;
  EXPECT_NE(res->body.find("reading it takes a lock"), std::string::npos) << res->body;
  const auto wide = post_field(R"({"address": "0xf0014", "field": "hw_revision", "value": "0x100"})", with_token());
  EXPECT_EQ(wide->status, 400) << wide->body;
  const auto unknown = post_field(R"({"address": "0x4", "value": "1"})", with_token());
  EXPECT_EQ(unknown->status, 400) << unknown->body;
  const auto not_json = post_field("address=1", with_token());
  EXPECT_EQ(not_json->status, 400) << not_json->body;
}

TEST_F(WebApi, DotDotPathsOversizedBodiesAndForeignHostsAreRefused) {
  start();
  for (const char* path : {"/assets/../etc/passwd", "/assets/%2e%2e/x", "//etc/passwd", "/api/devices/0/..%2fregisters"}) {
    const auto res = client_->Get(path, with_token());
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, 400) << path;
  }
  const auto big = post_field(std::string(200 * 1024, ' '), with_token());
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  httplib::Headers rebinding = with_token();
  rebinding.emplace("Host", "evil.example:" + std::to_string(server_->port()));
  const auto foreign = client_->Get("/api/devices", rebinding);
  ASSERT_TRUE(foreign);
  EXPECT_EQ(foreign->status, 421);
  const auto missing = client_->Get("/api/devices/7/registers", with_token());
  EXPECT_EQ(missing->status, 404);
}

TEST(WebListen, ANonLoopbackAddressNeedsAnAllowList) {
  WebOptions options;
  options.listen_address = "0.0.0.0";
  const auto refused = WebServer::bind(options);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(refused.error().message().find("needs --allow"), std::string::npos) << refused.error().message();
  const auto cli = run_tool("mst", {"web", "--listen", "0.0.0.0:0", "sim:/nonexistent"});
  EXPECT_EQ(cli.exit_code, 2) << cli.err;
  EXPECT_NE(cli.err.find("needs --allow CIDR"), std::string::npos) << cli.err;
}

}  // namespace
}  // namespace openflint::test

namespace openflint::test {
namespace {

TEST(WebToken, ATokenFileIsCreatedPrivateThenReadBackAndAnOpenOrBadOneIsRefused) {
  const TempDir dir;
  const auto path = dir / "token";
  const auto made = load_or_create_token(path);
  ASSERT_TRUE(made.has_value()) << made.error().message();
  EXPECT_EQ(made->size(), 32u);
  EXPECT_EQ(std::filesystem::status(path).permissions() & std::filesystem::perms::all, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  EXPECT_EQ(load_or_create_token(path).value(), *made);
  std::filesystem::permissions(path, std::filesystem::perms::group_read, std::filesystem::perm_options::add);
  const auto open = load_or_create_token(path);
  ASSERT_FALSE(open.has_value());
  EXPECT_EQ(open.error().code(), ErrorCode::PermissionDenied);
  std::filesystem::permissions(path, std::filesystem::perms::group_read, std::filesystem::perm_options::remove);
  std::ofstream(path) << "not a token\n";
  EXPECT_EQ(load_or_create_token(path).error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(random_access_token().value(), random_access_token().value());
}

}  // namespace
}  // namespace openflint::test
