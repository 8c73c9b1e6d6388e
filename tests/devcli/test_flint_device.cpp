// test_flint_device: flint -d sim:PATH query/verify/reset, raw flash commands and their errors.
#include <sys/file.h>
#include <fcntl.h>
#include <unistd.h>

#include <random>
#include <thread>

#include "tests/devcli/DevcliFixture.h"

namespace openflint::test {
namespace {

std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(gen());
  return v;
}

TEST_F(DevcliTest, QueryAndVerifyFs2Device) {
  create("connectx3", fs2_image());
  const auto q = flint({"-d", dev(), "q"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_NE(q.out.find("FW Version:            2.42.5000"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("FW Version(Running):   2.42.5000"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("MT_1090120019"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("ConnectX-3"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("N25Q032A"), std::string::npos) << q.out;
  const auto j = parse_json(flint({"-d", dev(), "q", "--json"}));
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["image_type"], "FS2");
  EXPECT_EQ(j["fw_version"], "2.42.5000");
  EXPECT_EQ(j["running"]["fw_version"], "2.42.5000");
  EXPECT_EQ(j["device"]["hw_id"], "0x1f5");
  EXPECT_EQ(j["flash"]["chip"], "N25Q032A");
  EXPECT_EQ(j["base_guid"]["base"], "0x0002c90300a1b2c0");
  const auto v = flint({"-d", dev(), "v"});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("Image is bootable"), std::string::npos) << v.out;
}

TEST_F(DevcliTest, QueryAndVerifyFs3Device) {
  create("connectx4", fs3_image());
  const auto j = parse_json(flint({"-d", dev(), "query", "--json"}));
  EXPECT_EQ(j["image_type"], "FS3");
  EXPECT_EQ(j["fw_version"], "12.2000.1010");
  EXPECT_EQ(j["psid"], "MT_2190110032");
  EXPECT_EQ(j["device"]["name"], "ConnectX-4");
  const auto v = parse_json(flint({"-d", dev(), "verify", "--json"}));
  EXPECT_EQ(v["ok"], true);
  EXPECT_EQ(v["bootable"], true);
  // Corrupt a dword of MAIN_CODE through the device: verify must now fail (exit 1).
  const auto main_code = build_fs3(SyntheticSpec{}).main_code;
  // -y: it is the only copy, so flint asks first (CheckThenWrite.* test the question).
  ASSERT_EQ(flint({"-d", dev(), "-y", "wwne", "0x" + [&] { char b[16]; std::snprintf(b, sizeof b, "%llx",
                   static_cast<unsigned long long>(main_code)); return std::string(b); }(), "0"}).exit_code, 0);
  const auto bad = flint({"-d", dev(), "v"});
  EXPECT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("NOT bootable"), std::string::npos) << bad.out;
}

TEST_F(DevcliTest, BlankDeviceQueryStillShowsTheDevice) {
  create("spectrum", {});
  const auto q = flint({"-d", dev(), "q"});
  EXPECT_EQ(q.exit_code, 3) << q.err;
  EXPECT_NE(q.out.find("Spectrum"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("recovery mode"), std::string::npos) << q.out;
  EXPECT_NE(q.err.find("no valid firmware image"), std::string::npos) << q.err;
  const auto j = parse_json(flint({"-d", dev(), "q", "--json"}));
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["device"]["hw_id"], "0x249");
}

TEST_F(DevcliTest, DwordCommandsRoundTrip) {
  create("connectx4", {});
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x2000"}).out, "0xffffffff\n");
  ASSERT_EQ(flint({"-d", dev(), "ww", "0x2000", "0x12345678"}).exit_code, 0);
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x2000"}).out, "0x12345678\n");
  // Needs 0 -> 1 bits: goes through the journal, neighbours stay.
  ASSERT_EQ(flint({"-d", dev(), "ww", "0x2004", "0xa5a5a5a5"}).exit_code, 0);
  const auto ww = parse_json(flint({"-d", dev(), "ww", "0x2000", "0xffff0000", "--json"}));
  EXPECT_EQ(ww["sectors_journaled"], 1);
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x2000"}).out, "0xffff0000\n");
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x2004"}).out, "0xa5a5a5a5\n");
  // wwne only clears bits.
  ASSERT_EQ(flint({"-d", dev(), "wwne", "0x2000", "0x0fff0000"}).exit_code, 0);
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x2000"}).out, "0x0fff0000\n");
  const auto bad = flint({"-d", dev(), "wwne", "0x2000", "0xf0000000"});
  EXPECT_EQ(bad.exit_code, 3) << bad.err;
  EXPECT_NE(bad.err.find("1 to 0"), std::string::npos) << bad.err;
  // erase: the whole sector holding the address.
  ASSERT_EQ(flint({"-d", dev(), "erase", "0x2010"}).exit_code, 0);
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x2004"}).out, "0xffffffff\n");
  const auto counters = parse_json(hcasim({"show", dev_path(), "--json"}))["counters"];
  EXPECT_GT(counters["erases"].get<int>(), 0);
  EXPECT_GT(counters["programs"].get<int>(), 0);
}

TEST_F(DevcliTest, BlockCommandsRoundTrip) {
  create("connectx4", {});
  const auto data = random_bytes(10000, 7);
  const std::string in = write("in.bin", data);
  ASSERT_EQ(flint({"-d", dev(), "wb", in, "0x2100"}).exit_code, 0);  // unaligned, spans 3 sectors
  const std::string out = (dir_ / "out.bin").string();
  ASSERT_EQ(flint({"-d", dev(), "rb", "0x2100", "10000", out}).exit_code, 0);
  EXPECT_EQ(read_file(out), data);
  // Rewrite the middle with other data (needs erases): the rest stays.
  const auto patch = random_bytes(300, 8);
  ASSERT_EQ(flint({"-d", dev(), "wb", write("patch.bin", patch), "0x3000"}).exit_code, 0);
  ASSERT_EQ(flint({"-d", dev(), "rb", "0x2100", "10000", out}).exit_code, 0);
  auto expected = data;
  std::copy(patch.begin(), patch.end(), expected.begin() + (0x3000 - 0x2100));
  EXPECT_EQ(read_file(out), expected);
}

TEST_F(DevcliTest, ReadImageBackFromFlash) {
  const auto image = fs3_image();
  create("connectx4", image);
  const std::string out = (dir_ / "ri.bin").string();
  const auto ri = flint({"-d", dev(), "ri", out});
  ASSERT_EQ(ri.exit_code, 0) << ri.err;
  // The image proper (up to the end of its last ITOC section), byte for byte as burned.
  const auto back = read_file(out);
  ASSERT_GT(back.size(), 0u);
  ASSERT_LE(back.size(), image.size());
  EXPECT_TRUE(std::equal(back.begin(), back.end(), image.begin()));
  EXPECT_EQ(flint({"-i", out, "v"}).exit_code, 0);
  EXPECT_EQ(parse_json(flint({"-i", out, "q", "--json"}))["fw_version"], "12.2000.1010");
}

// After an upgrade the active copy sits in the second slot; the saved file must still verify
// on its own (copy moved to 0, the board's device data at its flash addresses).
TEST_F(DevcliTest, ReadImageAfterAnUpgradeVerifiesOnItsOwn) {
  create("connectx4", fs3_image(2000));
  const auto burn = flint({"-d", dev(), "-i", write("new.bin", fs3_image(2001)), "burn", "-y", "--json"});
  ASSERT_EQ(burn.exit_code, 0) << burn.out << burn.err;
  EXPECT_NE(parse_json(burn)["new_copy_address"], "0x0") << burn.out;
  const std::string out = (dir_ / "ri.bin").string();
  const auto ri = flint({"-d", dev(), "ri", out});
  ASSERT_EQ(ri.exit_code, 0) << ri.err;
  const auto v = flint({"-i", out, "v"});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_EQ(parse_json(flint({"-i", out, "q", "--json"}))["fw_version"], "12.2001.1010");
}

TEST_F(DevcliTest, ResetRunsWhatTheFlashNowHolds) {
  create("connectx4", fs3_image(2000));
  ASSERT_EQ(flint({"-d", dev(), "wb", write("new.bin", fs3_image(2001)), "0"}).exit_code, 0);
  auto j = parse_json(flint({"-d", dev(), "q", "--json"}));
  EXPECT_EQ(j["fw_version"], "12.2001.1010");
  EXPECT_EQ(j["running"]["fw_version"], "12.2000.1010");  // still the old one until a reset
  const auto reset = flint({"-d", dev(), "reset"});
  ASSERT_EQ(reset.exit_code, 0) << reset.err;
  j = parse_json(flint({"-d", dev(), "q", "--json"}));
  EXPECT_EQ(j["running"]["fw_version"], "12.2001.1010");
  // Erase the image's first sector: after a reset the device is in recovery mode.
  EXPECT_EQ(flint({"-d", dev(), "erase", "0"}).exit_code, 7);  // the last bootable copy: asked, no TTY = no
  ASSERT_EQ(flint({"-d", dev(), "-y", "erase", "0"}).exit_code, 0);
  ASSERT_EQ(flint({"-d", dev(), "reset"}).exit_code, 0);
  EXPECT_EQ(parse_json(hcasim({"show", dev_path(), "--json"}))["running"]["recovery"], true);
}

TEST_F(DevcliTest, BadNamesAndFilesGiveClearErrors) {
  auto r = flint({"-d", "pci0", "q"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("accepted forms are sim:PATH"), std::string::npos) << r.err;
  auto j = parse_json(flint({"-d", "pci0", "q", "--json"}));
  EXPECT_EQ(j["error"]["code"], "invalid argument");
  r = flint({"-d", "sim:", "q"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = flint({"-d", "sim:" + dev_path("missing"), "q"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("hcasim create"), std::string::npos) << r.err;
  r = flint({"-d", "lid-x", "q"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // An RDMA name without its device is absent (4), not unknown; a huge name is not echoed whole.
  r = flint({"-d", "mlx5_7", "q"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("no such RDMA device 'mlx5_7'"), std::string::npos) << r.err;
  for (const std::size_t size : {std::size_t{2000}, std::size_t{100000}}) {
    r = flint({"-d", std::string(size, 'x'), "q"});
    EXPECT_EQ(r.exit_code, 2) << size;
    EXPECT_LT(r.err.size(), 1000u) << size << ": " << r.err.substr(0, 300);
    EXPECT_NE(r.err.find("bytes)"), std::string::npos) << r.err.substr(0, 300);
  }
  r = flint({"rw", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("no device given"), std::string::npos) << r.err;
  create("connectx4", {});
  r = flint({"-d", dev(), "wb", dev_path("nope.bin"), "0"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("nope.bin"), std::string::npos) << r.err;
  r = flint({"-d", dev(), "rw", "0x1002"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = flint({"-d", dev(), "rw", "zz"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = flint({"-d", dev(), "rb", "0x3ffff0", "0x100", dev_path("o.bin")});
  EXPECT_NE(r.exit_code, 0);
  r = flint({"-d", dev(), "ww", "0x2000", "0x100000000"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = flint({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Exit codes"), std::string::npos);
}

TEST_F(DevcliTest, BusyDeviceFailsAfterTheTimeout) {
  create("connectx4", {});
  const int fd = ::open((dir_ / "dev" / "lock").c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  const auto r = flint({"-d", dev(), "--lock-timeout", "200", "rw", "0"});
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find("device busy"), std::string::npos) << r.err;
  const auto s = hcasim({"show", dev_path()});
  EXPECT_EQ(s.exit_code, 5) << s.err;
  ::close(fd);
  EXPECT_EQ(flint({"-d", dev(), "rw", "0"}).exit_code, 0);
}

TEST_F(DevcliTest, ConcurrentWritersAreSerialized) {
  create("connectx4", {});
  // Both need an erase (journaled: many flash ops each), so they overlap in time; with the
  // device lock neither update may be lost.
  ASSERT_EQ(flint({"-d", dev(), "ww", "0x10000", "0"}).exit_code, 0);
  ASSERT_EQ(flint({"-d", dev(), "ww", "0x20000", "0"}).exit_code, 0);
  CommandResult a, b;
  std::thread ta([&] { a = flint({"-d", dev(), "ww", "0x10000", "0x11111111"}); });
  std::thread tb([&] { b = flint({"-d", dev(), "ww", "0x20000", "0x22222222"}); });
  ta.join();
  tb.join();
  EXPECT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x10000"}).out, "0x11111111\n");
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x20000"}).out, "0x22222222\n");
}

}  // namespace
}  // namespace openflint::test
