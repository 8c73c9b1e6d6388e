// HostileRunner: runs a tool on a hostile input under a time and address-space limit and checks it refused cleanly.
#pragma once

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <string>
#include <vector>

#include "tests/support/TestSupport.h"

namespace openflint::test {

// Every tool must finish a hostile case in 10 s (issue 17); the kill comes later so a slow
// case shows up as a measured time, not only as a kill.
inline constexpr int kKillAfterSeconds = 20;
inline constexpr double kMaxSeconds = 10.0;
// Peak memory bound on any hostile input: 256 MiB of address space. ASan reserves terabytes of
// shadow address space, so under sanitizers the limit cannot be an address-space one.
inline constexpr long kAddressSpaceKiB = 256 * 1024;
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSpaceLimited = false;
#else
inline constexpr bool kAddressSpaceLimited = true;
#endif

// The largest resident set of any tool this test process has run so far, in KiB (the kernel
// keeps the maximum over every reaped descendant): the memory bound that holds under ASan too.
inline long peak_tool_rss_kib() {
  rusage usage{};
  return ::getrusage(RUSAGE_CHILDREN, &usage) == 0 ? usage.ru_maxrss : -1;
}

struct HostileRun {
  CommandResult result;
  double seconds = 0;
  std::string command;  // for failure messages
};

// Runs bin(tool) with args (no stdin: /dev/null), killed after kKillAfterSeconds.
inline HostileRun run_hostile(const std::string& tool, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"timeout", "-s", "KILL", std::to_string(kKillAfterSeconds), "sh", "-c",
                                kAddressSpaceLimited
                                    ? "ulimit -v " + std::to_string(kAddressSpaceKiB) + " && exec \"$@\""
                                    : std::string("exec \"$@\""),
                                "sh", bin(tool).string()};
  argv.insert(argv.end(), args.begin(), args.end());
  HostileRun run;
  run.command = tool;
  for (const auto& a : args) run.command += " " + a;
  const auto start = std::chrono::steady_clock::now();
  run.result = run_command(argv);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

// The tool ended by itself within the time bound with a documented exit code — never an
// abort (134), a signal, the 70 "internal error" net, or an uncaught-exception message.
inline void expect_orderly(const HostileRun& run) {
  const int code = run.result.exit_code;
  EXPECT_TRUE(code >= 0 && code <= 7) << run.command << ": exit " << code << "\n" << run.result.err;
  EXPECT_LT(run.seconds, kMaxSeconds) << run.command;
  EXPECT_LT(peak_tool_rss_kib(), kAddressSpaceKiB) << run.command << " (or a tool run before it in this test)";
  EXPECT_EQ(run.result.err.find("terminate called"), std::string::npos) << run.command << "\n" << run.result.err;
  EXPECT_EQ(run.result.err.find("internal error"), std::string::npos) << run.command << "\n" << run.result.err;
}

// expect_orderly, and the tool refused (non-zero) with a "-E-" line holding `needle`.
inline void expect_refused(const HostileRun& run, int exit_code, const std::string& needle) {
  expect_orderly(run);
  EXPECT_EQ(run.result.exit_code, exit_code) << run.command << "\n" << run.result.out << run.result.err;
  EXPECT_NE(run.result.err.find("-E-"), std::string::npos) << run.command << "\n" << run.result.err;
  EXPECT_NE(run.result.err.find(needle), std::string::npos)
      << run.command << ": expected '" << needle << "' in\n" << run.result.err;
}

}  // namespace openflint::test
