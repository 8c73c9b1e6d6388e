// Interop: what the real mstflint does on a simulated ConnectX-4 in-band without --ocr (issue 11).
// Debian's mstflint 4.21 crashes there, inside mstflint, whatever the device answers; this test
// records that (docs/fwaccess.md "Why mstflint 4.21 cannot burn in-band without --ocr") so that a
// mstflint without the bug shows up as a failure here.
#include <csignal>
#include <regex>
#include <sstream>

#include "tests/inband/SimDeviceFabricFixture.h"
#include "tests/support/SyntheticImage.h"

namespace openflint::test {
namespace {

// mstflint's version as major*100 + minor ("mstflint, mstflint 4.21.0, ..."), 0 if unknown.
int mstflint_version() {
  const auto v = run_command({"mstflint", "-v"});
  std::smatch m;
  const std::regex re("mstflint ([0-9]+)\\.([0-9]+)\\.");
  if (!std::regex_search(v.out, m, re)) return 0;
  return std::stoi(m[1].str()) * 100 + std::stoi(m[2].str());
}

// Upstream commit 9ddab1de ("segfault while sending ICMDs on IB device", first in v4.29.0) adds
// the NULL check of mf->dinfo in mtcr_ul_icmd_cif.c is_livefish_device.
constexpr int kFirstFixedVersion = 429;

std::vector<std::uint8_t> mcc_image(std::uint16_t minor) {
  SyntheticSpec s;
  s.hw_id = 0x209;
  s.fw_major = 12;
  s.fw_minor = minor;
  s.fw_subminor = 1100;
  return build_fs3_mcc(s).bytes;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("mad ", 0) == 0) out.push_back(line);
  }
  return out;
}

class MstflintDefaultPath : public SimDeviceFabricFixture {
 protected:
  void SetUp() override {
    if (!have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; interop not checked";
    SimDeviceFabricFixture::SetUp();
  }
  // The trace lines the responder wrote while `argv` ran.
  std::vector<std::string> traced_during(const std::vector<std::string>& argv, CapturedRun& result) {
    const std::size_t before = lines_of(fabric_->responder_output("Hca2")).size();
    result = run(argv);
    auto all = lines_of(fabric_->responder_output("Hca2"));
    return {all.begin() + static_cast<std::ptrdiff_t>(std::min(before, all.size())), all.end()};
  }
};

// The simulated ConnectX-4 runs firmware with MCC (it answers MCAM, MGIR, MCQS, MCQI, MCC, MCDA
// over SMP and GMP), and still: mstflint 4.21 sends neither MCAM nor MGIR (both are over the 44
// bytes its MST_UL build allows in-band), reads the flash through the gateway, and after refusing
// MGIR locally falls back to the ICMD query of the running version: icmd_open's livefish check
// reads the hw id (the last MAD) and dereferences the NULL PCI info of an in-band device.
TEST_F(MstflintDefaultPath, ConnectX4QueryAndBurnWithoutOcr) {
  const int version = mstflint_version();
  responder_args_ = {"--trace"};
  serve("connectx4", mcc_image(1000));
  if (HasFatalFailure() || IsSkipped()) return;
  const auto img = dir_.path() / "new.bin";
  write_file(img, mcc_image(1010));

  CapturedRun q;
  const auto q_mads = traced_during({"mstflint", "-d", lid_name(), "q"}, q);
  if (version >= kFirstFixedVersion) {
    // A mstflint with the fix: the default path should now work; issue 11 can drop --ocr.
    EXPECT_EQ(q.exit_code, 0) << "mstflint " << version << ": " << q.out << q.err;
    return;
  }
  ASSERT_EQ(q.term_signal, SIGSEGV) << "mstflint " << version << " no longer crashes (exit " << q.exit_code
                                    << "): see docs/fwaccess.md and issue 11\n"
                                    << q.out << q.err;
  ASSERT_FALSE(q_mads.empty());
  // Its last request: the hw id read of is_livefish_device, answered ConnectX-4 (0x209).
  EXPECT_NE(q_mads.back().find("attr=0x0050 mod=0x0f010014 status=0x0000 data=00000209"), std::string::npos)
      << q_mads.back();
  std::size_t registers = 0;
  for (const auto& line : q_mads) {
    if (line.find("attr=0xff52") == std::string::npos && line.find("attr=0x0051") == std::string::npos) continue;
    ++registers;
    // Only what fits 44 bytes went out: MLOCK (0x402d) and MFPA (0x9010); never MCAM, MGIR, MCC.
    EXPECT_TRUE(line.find("reg=0x402d") != std::string::npos || line.find("reg=0x9010") != std::string::npos)
        << line;
  }
  EXPECT_GE(registers, 1u);

  // The burn takes the same query first and crashes before erasing or writing anything.
  CapturedRun b;
  const auto b_mads = traced_during({"mstflint", "-d", lid_name(), "-i", img.string(), "-y", "b"}, b);
  EXPECT_EQ(b.term_signal, SIGSEGV) << b.out << b.err;
  ASSERT_FALSE(b_mads.empty());
  EXPECT_NE(b_mads.back().find("mod=0x0f010014"), std::string::npos) << b_mads.back();

  auto device = stop_and_reload();
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->counters().flash.erases, saved_counters_.flash.erases);
  EXPECT_EQ(device->counters().flash.programs, saved_counters_.flash.programs);
  EXPECT_EQ(device->counters().firmware.component_locks, 0u);
  EXPECT_EQ(device->counters().firmware.gateway_conflicts, 0u);
}

}  // namespace
}  // namespace openflint::test
