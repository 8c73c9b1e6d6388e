// HostileRunner: runs a tool on a hostile input under a time and address-space limit and checks it refused cleanly.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/TestSupport.h"

namespace openflint::test {

// Every tool must finish a hostile case in 10 s (issue 17); the kill comes later so a slow
// case shows up as a measured time, not only as a kill.
inline constexpr int kKillAfterSeconds = 20;
inline constexpr double kMaxSeconds = 10.0;
// Peak memory bound on any hostile input: 256 MiB. Outside sanitizers it is an address-space
// limit (ulimit -v). ASan reserves terabytes of shadow address space, so under ASan the bound
// is set through ASan's own options instead (see asan_options()).
inline constexpr long kAddressSpaceKiB = 256 * 1024;
#if defined(__SANITIZE_ADDRESS__)
#define OPENFLINT_HOSTILE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OPENFLINT_HOSTILE_ASAN 1
#endif
#endif
#if defined(OPENFLINT_HOSTILE_ASAN)
inline constexpr bool kAddressSpaceLimited = false;
#else
inline constexpr bool kAddressSpaceLimited = true;
#endif
// An ASan report (including the memory limits below) ends the tool with this code, which
// expect_orderly() does not accept (ASan's default, 1, would pass as an orderly exit).
inline constexpr int kAsanExitCode = 86;

// Under ASan: ASAN_OPTIONS for a tool run, the environment's own options (e.g. detect_leaks=1
// from scripts/test.sh) followed by the memory bound, so the bound wins where they overlap:
// the process is killed once its RSS passes 256 MiB (checked by a background thread), and any
// single allocation above 256 MiB is a report rather than a null return. The quarantine (freed
// memory ASan holds back to catch use-after-free, 256 MiB by default) is cut to 16 MiB so that
// ASan's own bookkeeping does not trip the RSS limit. Empty outside ASan.
inline std::string asan_options() {
  if (kAddressSpaceLimited) return "";
  std::string options;
  if (const char* env = std::getenv("ASAN_OPTIONS"); env != nullptr && *env != '\0') options = std::string(env) + ":";
  const std::string mib = std::to_string(kAddressSpaceKiB / 1024);
  return options + "hard_rss_limit_mb=" + mib + ":max_allocation_size_mb=" + mib +
         ":allocator_may_return_null=0:quarantine_size_mb=16:exitcode=" + std::to_string(kAsanExitCode);
}

// GNU time measures a tool's own peak RSS (it forks, so the figure is the tool's alone; a
// spawned child's getrusage would carry the test process's high-water mark). Without it the RSS
// bound is not checked; the address-space limit still holds outside ASan.
inline const char* kGnuTime = "/usr/bin/time";
inline bool have_gnu_time() { return ::access(kGnuTime, X_OK) == 0; }

// The largest peak RSS of any tool run by this test process, in KiB (0: none measured).
// Atomic: run_hostile_many() runs tools from several threads.
inline std::atomic<long>& peak_tool_rss_kib() {
  static std::atomic<long> peak{0};
  return peak;
}

struct HostileRun {
  CommandResult result;
  double seconds = 0;
  long rss_kib = 0;     // the tool's peak RSS; 0 when not measured
  std::string command;  // for failure messages
};

// Runs argv (which ends with the tool and its args) and times it; `command` names tool and args.
inline HostileRun timed_run(const std::vector<std::string>& argv, const std::string& tool,
                            const std::vector<std::string>& args) {
  HostileRun run;
  run.command = tool;
  for (const auto& a : args) run.command += " " + a;
  const auto start = std::chrono::steady_clock::now();
  run.result = run_command(argv);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

// Runs bin(tool) with args (no stdin: /dev/null), killed after kKillAfterSeconds.
inline HostileRun run_hostile(const std::string& tool, const std::vector<std::string>& args) {
  // sh -c SCRIPT RSSFILE TOOL ARGS...: $0 is where GNU time writes the peak RSS (last line).
  const TempDir rss_dir;
  const std::string rss_file = (rss_dir / "rss").string();
  const std::string limit = kAddressSpaceLimited ? "ulimit -v " + std::to_string(kAddressSpaceKiB) + " && " : "";
  const std::string exec = have_gnu_time() ? "exec " + std::string(kGnuTime) + " -q -f %M -o \"$0\" \"$@\""
                                           : std::string("exec \"$@\"");
  std::vector<std::string> argv;
  if (!kAddressSpaceLimited) argv = {"env", "ASAN_OPTIONS=" + asan_options()};
  const std::vector<std::string> timed{"timeout", "-s", "KILL", std::to_string(kKillAfterSeconds), "sh", "-c",
                                       limit + exec, rss_file, bin(tool).string()};
  argv.insert(argv.end(), timed.begin(), timed.end());
  argv.insert(argv.end(), args.begin(), args.end());
  HostileRun run = timed_run(argv, tool, args);
  std::ifstream rss(rss_file);
  for (std::string line; std::getline(rss, line);) {
    if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0]))) run.rss_kib = std::stol(line);
  }
  for (long seen = peak_tool_rss_kib().load(); run.rss_kib > seen;) {
    if (peak_tool_rss_kib().compare_exchange_weak(seen, run.rss_kib)) break;
  }
  return run;
}

// How many tools run_hostile_many() runs at once: OPENFLINT_HOSTILE_JOBS, default 2.
inline std::size_t hostile_jobs() {
  const char* env = std::getenv("OPENFLINT_HOSTILE_JOBS");
  const long jobs = env != nullptr ? std::atol(env) : 2;
  return static_cast<std::size_t>(std::clamp(jobs, 1L, 64L));
}

// One tool invocation: argv[0] is the tool, the rest its arguments.
using HostileCommand = std::vector<std::string>;

// run_hostile on every command, hostile_jobs() at a time; results in the commands' order.
// Only the runs are concurrent: callers assert on the results afterwards, in order, so each
// command needs inputs and outputs of its own (no shared device, no shared output path).
inline std::vector<HostileRun> run_hostile_many(const std::vector<HostileCommand>& commands) {
  std::vector<HostileRun> runs(commands.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < commands.size(); i = next++)
      runs[i] = run_hostile(commands[i].front(), {commands[i].begin() + 1, commands[i].end()});
  };
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < std::min(hostile_jobs(), commands.size()); ++t) threads.emplace_back(worker);
  worker();
  for (auto& thread : threads) thread.join();
  return runs;
}

// The tool ended by itself within the time bound with a documented exit code — never an
// abort (134), a signal, the 70 "internal error" net, or an uncaught-exception message.
inline void expect_orderly(const HostileRun& run) {
  const int code = run.result.exit_code;
  EXPECT_TRUE(code >= 0 && code <= 7) << run.command << ": exit " << code << "\n" << run.result.err;
  EXPECT_LT(run.seconds, kMaxSeconds) << run.command;
  EXPECT_LT(run.rss_kib, kAddressSpaceKiB) << run.command << ": peak RSS";
  EXPECT_EQ(run.result.err.find("terminate called"), std::string::npos) << run.command << "\n" << run.result.err;
  EXPECT_EQ(run.result.err.find("internal error"), std::string::npos) << run.command << "\n" << run.result.err;
  // Any ASan report, e.g. "AddressSanitizer: hard rss limit exhausted" (exit kAsanExitCode too).
  EXPECT_EQ(run.result.err.find("AddressSanitizer"), std::string::npos) << run.command << "\n" << run.result.err;
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
