// `mst server --read-only` end to end: `flint q` of a device whose flash is read through the
// CR-space gateway works through it (the gateway's read commands are writes), while ww, erase
// and burn are refused and the flash stays as it was. (The rule itself, on every gateway kind:
// test_read_only_writes.cpp.)
#include "tests/remote_server/ServerFixture.h"

namespace openflint::test {
namespace {

using ReadOnlyServer = ServerFixture;

std::string line_with(const std::string& text, const std::string& key) {
  const std::size_t at = text.find(key);
  if (at == std::string::npos) return "(no " + key + " line)";
  return text.substr(at, text.find('\n', at) - at);
}

TEST_F(ReadOnlyServer, AnswersAGatewayFlashQueryAndRefusesEveryChange) {
  // ConnectX-3: no register channel to its firmware, so q reads the flash through the gateway
  // (the semaphore lock, gen4 CMD words).
  const auto cx3 = dir_ / "cx3";
  ASSERT_EQ(run_tool("hcasim", {"create", "--model", "connectx3", "--flash", "M25P16", cx3.string(), "--image",
                                sample_image("connectx3-old").string()})
                .exit_code,
            0);
  const std::string device = "sim:" + cx3.string();
  const auto local = run_tool("flint", {"-d", device, "q"});
  ASSERT_EQ(local.exit_code, 0) << local.err;
  const auto flash_before = read_file(cx3 / "flash.bin");
  ASSERT_FALSE(flash_before.empty());

  const auto port = start_server({"--read-only"}, {device});
  ASSERT_NE(port, 0);
  const std::string remote = "127.0.0.1:" + std::to_string(port) + "," + remote_name(device);
  const auto q = run_tool("flint", {"-d", remote, "q"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(line_with(q.out, "FW Version"), line_with(local.out, "FW Version")) << q.out;
  EXPECT_EQ(line_with(q.out, "PSID"), line_with(local.out, "PSID")) << q.out;
  EXPECT_NE(audit_text().find("O " + device), std::string::npos) << audit_text();
  EXPECT_EQ(audit_text().find("refused on a read-only server"), std::string::npos) << audit_text();

  for (const std::vector<std::string>& change :
       {std::vector<std::string>{"-y", "ww", "0x20000", "0x12345678"}, {"-y", "erase", "0x20000"},
        {"-i", sample_image("connectx3-new").string(), "-y", "burn"}}) {
    SCOPED_TRACE(change[1]);
    std::vector<std::string> args{"-d", remote};
    args.insert(args.end(), change.begin(), change.end());
    const auto r = run_tool("flint", args);
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_NE(r.err.find("read-only server"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(read_file(cx3 / "flash.bin") == flash_before) << "the flash changed through a read-only server";
  EXPECT_NE(audit_text().find("refused on a read-only server: " + device + " writing 0xf0400: flash command 0x6 is not "
                              "a read"),
            std::string::npos)
      << audit_text();
  // The flash lock is free afterwards: a local query does not wait for it.
  EXPECT_EQ(run_tool("flint", {"-d", device, "--lock-timeout", "0", "q"}).exit_code, 0);
}

}  // namespace
}  // namespace openflint::test
