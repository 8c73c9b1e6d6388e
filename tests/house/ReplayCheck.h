// ReplayCheck: records a tool's run on a device (OPENFLINT_RECORD), replays it (replay:FILE) into the same tool, and compares.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/TestSupport.h"

namespace openflint::test {

// The records of a session file, read with zlib (not the code under test), one per line.
inline std::vector<std::string> session_records_of(const std::filesystem::path& file) {
  std::vector<std::string> records;
  gzFile gz = gzopen(file.c_str(), "rb");
  if (gz == nullptr) {
    ADD_FAILURE() << "cannot open " << file;
    return records;
  }
  std::string text;
  char buffer[1 << 16];
  int got = 0;
  while ((got = gzread(gz, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(got));
  EXPECT_EQ(got, 0) << file << " is not a whole gzip stream";
  gzclose(gz);
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    records.push_back(text.substr(start, end - start));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return records;
}

// Writes `records` as a session file (gzip, one per line), as a user's edited or cut recording.
inline std::filesystem::path write_session(const std::filesystem::path& file, const std::vector<std::string>& records) {
  gzFile gz = gzopen(file.c_str(), "wb");
  EXPECT_NE(gz, nullptr) << file;
  for (const std::string& record : records) {
    gzwrite(gz, record.data(), static_cast<unsigned>(record.size()));
    gzputc(gz, '\n');
  }
  gzclose(gz);
  return file;
}

struct Recorded : CommandResult {
  std::filesystem::path session;
};

class ReplayCheck {
 public:
  explicit ReplayCheck(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // Runs TOOL ARGS... ("{dev}" in ARGS replaced by `device`) with OPENFLINT_RECORD set.
  Recorded record(const std::vector<std::string>& command, const std::string& device,
                  const std::vector<std::string>& env = {}) {
    Recorded r;
    r.session = dir_ / ("session-" + std::to_string(++count_) + ".gz");
    std::vector<std::string> extra = env;
    extra.push_back("OPENFLINT_RECORD=" + r.session.string());
    static_cast<CommandResult&>(r) = run_command(argv(command, device), extra);
    return r;
  }

  // Records the command on `device`, replays the session into the same command on replay:FILE
  // (itself recorded), and expects the same exit code, stdout and stderr, and the same records.
  Recorded expect_replays(const std::vector<std::string>& command, const std::string& device,
                          const std::vector<std::string>& env = {}) {
    Recorded original = record(command, device, env);
    expect_replay_of(original, command);
    return original;
  }

  // The replay half of expect_replays, for a session recorded some other way (the device may be
  // gone: a stopped server, a torn-down fabric).
  void expect_replay_of(const Recorded& original, const std::vector<std::string>& command) {
    Recorded replay = record(command, "replay:" + original.session.string());
    EXPECT_EQ(replay.exit_code, original.exit_code) << replay.err;
    EXPECT_EQ(replay.out, original.out);
    EXPECT_EQ(replay.err, original.err);
    const std::vector<std::string> recorded = session_records_of(original.session);
    const std::vector<std::string> replayed = session_records_of(replay.session);
    // The device was really used: opened, asked, released.
    EXPECT_GE(recorded.size(), 4u);
    EXPECT_TRUE(std::any_of(recorded.begin(), recorded.end(), [](const std::string& s) { return s.starts_with("open "); }));
    EXPECT_EQ(std::count(recorded.begin(), recorded.end(), "close"),
              std::count_if(recorded.begin(), recorded.end(), [](const std::string& s) { return s.starts_with("open "); }));
    EXPECT_TRUE(recorded == replayed) << "the replay asked other things than the recording: " << recorded.size()
                                      << " records recorded, " << replayed.size() << " replayed";
  }

 private:
  static std::vector<std::string> argv(const std::vector<std::string>& command, const std::string& device) {
    std::vector<std::string> out{bin(command.front()).string()};
    for (std::size_t i = 1; i < command.size(); ++i) out.push_back(command[i] == "{dev}" ? device : command[i]);
    return out;
  }

  std::filesystem::path dir_;
  int count_ = 0;
};

}  // namespace openflint::test
