// Interop in-band: our mst mread/mwrite/dump and mstflint's mstmread/mstmwrite/mstregdump on the
// same simulated device served by ibsim-responder on an ibsim fabric (lid-N), both run as node
// Hca1. Values must agree at every address both dumps hold.
#include <chrono>

#include "core/HexString.h"
#include "tests/inband/SimDeviceFabricFixture.h"
#include "tests/mst_interop/DumpCompare.h"

namespace openflint::test {
namespace {

class MstInbandInterop : public SimDeviceFabricFixture {
 protected:
  void SetUp() override {
    for (const char* tool : {"mstmread", "mstmwrite", "mstregdump"})
      if (!have_program(tool)) GTEST_SKIP() << tool << " is not installed; mst interop in-band not checked";
    SimDeviceFabricFixture::SetUp();
  }
  CapturedRun mst(std::vector<std::string> args) {
    args.insert(args.begin(), bin("mst").string());
    return run(args);
  }
  CapturedRun timed(const std::string& what, std::vector<std::string> argv) {
    const auto start = std::chrono::steady_clock::now();
    CapturedRun r = run(std::move(argv), 180000);
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "[ " << what << " ] " << seconds_ << " s\n";
    RecordProperty(what, std::to_string(seconds_));
    return r;
  }
  double seconds_ = 0;
};

// ConnectX-3: a 4th-gen part (flash semaphore 0xf03fc, hardware semaphores 0xf03a0/0xf03bc).
TEST_F(MstInbandInterop, ConnectX3MreadMwriteAndDumpAgreeWithMstflint) {
  serve("connectx3", std::vector<std::uint8_t>(4096, 0xff));
  if (HasFatalFailure() || IsSkipped()) return;
  const std::string lid = lid_name();

  // Our writes, read by mstmread; theirs, read by ours (hw id page, semaphore area, gateway ADDR).
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> ours{{0xf0020, 0x0badf00d}, {0xf0384, 0x12345678},
                                                                  {0xf0404, 0x00abcdef}};
  for (const auto& [address, value] : ours) {
    auto w = mst({"mwrite", lid, hex_string(address), hex_string(value)});
    ASSERT_EQ(w.exit_code, 0) << w.err;
    auto r = run({"mstmread", lid, hex_string(address)});  // exits 4 after a successful read (4.21)
    char expect[16];
    std::snprintf(expect, sizeof expect, "0x%08x", value);
    EXPECT_EQ(mstmread_value(r.out), expect) << r.out;
  }
  auto w = run({"mstmwrite", lid, "0xf0030", "0xfeedface"});
  ASSERT_EQ(w.exit_code, 0) << w.out << w.err;
  EXPECT_EQ(mst({"mread", lid, "0xf0030"}).out, "0x000f0030 0xfeedface\n");
  for (const char* address : {"0xf0014", "0xf0020", "0xf0030"}) {
    const auto theirs = run({"mstmread", lid, address});
    const auto mine = parse_dump(mst({"mread", lid, address}).out);
    ASSERT_EQ(mine.size(), 1u);
    EXPECT_EQ(mine.begin()->second, mstmread_value(theirs.out)) << theirs.out;
  }

  const auto theirs = timed("mstregdump_inband_seconds", {"mstregdump", lid});
  ASSERT_EQ(theirs.exit_code, 0) << theirs.err;
  EXPECT_LT(seconds_, 120.0);
  const auto full = timed("mst_dump_full_inband_seconds", {bin("mst").string(), "dump", lid, "--full"});
  ASSERT_EQ(full.exit_code, 0) << full.err;
  // Observed under ibsim/umad2sim: mstregdump's 64- and 76-dword block reads return a wrong
  // value at the block's dword 50 (e.g. 0xe1fa0100 at 0xf06c8 and 0xf3ec8, where mstmread and we
  // read 0), a transport artifact of mstflint's large in-band blocks. Where the dumps differ, the
  // single-dword mstmread decides; ours must equal it everywhere.
  const auto our_words = parse_dump(full.out);
  auto their_words = parse_dump(theirs.out);
  std::size_t rechecked = 0;
  for (const auto& [address, value] : our_words) {
    auto it = their_words.find(address);
    if (it == their_words.end() || it->second == value) continue;
    ++rechecked;
    const std::string single = mstmread_value(run({"mstmread", lid, address}).out);
    std::cout << "[ in-band ] " << address << ": mstregdump " << it->second << ", mstmread " << single << ", ours "
              << value << "\n";
    it->second = single;
  }
  EXPECT_LE(rechecked, 4u);
  Overlap o = compare_dumps(our_words, their_words);
  std::cout << "[ in-band ] " << o.common << " common addresses (" << o.nonzero << " nonzero), " << o.differing
            << " differ after " << rechecked << " single-dword rechecks\n";
  EXPECT_GT(o.common, 1000u);
  EXPECT_GE(o.nonzero, 4u);  // hw id, 0xf0020, 0xf0030, the gateway ADDR
  EXPECT_EQ(o.differing, 0u) << o.first_difference;
  o = compare_dumps(parse_dump(mst({"dump", lid}).out), their_words);
  EXPECT_GE(o.common, 10u);
  EXPECT_EQ(o.differing, 0u) << o.first_difference;

  // Neither dump took the flash semaphore (the device saves its state on stop).
  auto device = stop_and_reload();
  ASSERT_NE(device, nullptr);
  EXPECT_FALSE(device->gateway().locked());
}

}  // namespace
}  // namespace openflint::test
