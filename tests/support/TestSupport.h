// TestSupport: helpers shared by the test executables (temp dirs, running commands, paths).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/ChildProcess.h"

namespace openflint::test {

// A fresh directory removed with everything in it when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code = -1;  // -1 when the process did not exit normally
  std::string out;     // stdout
  std::string err;     // stderr
};

// Runs argv (no shell) and captures its stdout/stderr.
CommandResult run_command(const std::vector<std::string>& argv);
// The same with extra environment entries ("NAME=VALUE", each replacing NAME of ours).
CommandResult run_command(const std::vector<std::string>& argv, const std::vector<std::string>& env);
// Our environment with `extra` ("NAME=VALUE") set over it.
std::vector<std::string> environment_with(const std::vector<std::string>& extra);
// How a test starts a tool in the background (core/ChildProcess): argv[0] on PATH, `env`
// ("NAME=VALUE") over ours, stdout and stderr each in its own file (emptied first, read back with
// out()/err(): no pipe the test must drain), and SIGTERM when the test process dies.
SpawnSpec background_tool(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                          const std::filesystem::path& out_file, const std::filesystem::path& err_file);

// One of our built executables (bin(name)) run with `args`.
CommandResult run_tool(const std::string& name, std::vector<std::string> args);
// A firmware sample the build made, e.g. sample_image("connectx3-new") (build/firmware-samples).
std::filesystem::path sample_image(const std::string& name);

// Path of one of our built executables, e.g. bin("flint").
std::filesystem::path bin(const std::string& name);
// ../shared (or $OPENFLINT_SHARED); nullopt when it is absent.
std::optional<std::filesystem::path> shared_dir();
// ../shared/firmware/real when present.
std::optional<std::filesystem::path> real_firmware_dir();
// Whether an executable is on PATH (e.g. "mstflint").
bool have_program(const std::string& name);

// n pseudo-random bytes, the same for the same seed (mt19937).
std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint32_t seed);

std::vector<std::uint8_t> read_file(const std::filesystem::path& path);
// A file's text; empty when it does not exist (yet): tests poll logs that a tool starts writing later.
std::string read_text(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes);

}  // namespace openflint::test
