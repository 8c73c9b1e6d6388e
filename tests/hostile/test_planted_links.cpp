// Hostile inputs, class "planted link": a symbolic link put where a tool keeps its lock or state files is refused, never followed.
#include <filesystem>
#include <string>
#include <vector>

#include "tests/hostile/HostileFixture.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

std::size_t error_lines(const std::string& err) {
  std::size_t n = 0;
  for (std::size_t at = err.find("-E-"); at != std::string::npos; at = err.find("-E-", at + 1)) ++n;
  return n;
}

// A tool run with extra environment, in the hostile runner's terms (a documented exit code, no
// abort); the environment points the tool at our run directory and sysfs tree.
HostileRun run_with_env(const std::vector<std::string>& env, const std::string& tool, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"env"};
  argv.insert(argv.end(), env.begin(), env.end());
  argv.push_back(bin(tool).string());
  argv.insert(argv.end(), args.begin(), args.end());
  return timed_run(argv, tool, args);
}

TEST_F(HostileTest, LinksPlantedInASimDirectoryAreNotFollowed) {
  const std::string dev = create_device();
  const fs::path dir = dir_ / "dev";
  const fs::path victim = dir_ / "victim";  // where the links point; must never come to exist

  // The lock: a dangling link in its place (root would create its target).
  fs::remove(dir / "lock");
  fs::create_symlink(victim, dir / "lock");
  auto run = run_hostile("flint", {"-d", dev, "q"});
  expect_refused(run, 4, "is a symbolic link");
  EXPECT_EQ(error_lines(run.result.err), 1u) << run.result.err;
  EXPECT_FALSE(fs::exists(fs::symlink_status(victim))) << "the lock link was followed";
  fs::remove(dir / "lock");

  // The flash array: a link to another file. Reading follows it (the user's own file), but the
  // save that ends every command refuses to replace it, and writes nothing anywhere.
  // (Compared by modification time: reading 4 MiB byte by byte is slow under ASan.)
  const fs::path elsewhere = dir_ / "elsewhere.bin";
  fs::rename(dir / "flash.bin", elsewhere);
  fs::create_symlink(elsewhere, dir / "flash.bin");
  const auto flash_before = fs::last_write_time(elsewhere);
  const auto state_before = read_file(dir / "state.json");
  run = run_hostile("hcasim", {"set-temperature", dir.string(), "50"});
  expect_refused(run, 4, "is a symbolic link");
  EXPECT_EQ(error_lines(run.result.err), 1u) << run.result.err;
  EXPECT_TRUE(fs::is_symlink(dir / "flash.bin"));
  EXPECT_EQ(fs::last_write_time(elsewhere), flash_before) << "written through the link";
  EXPECT_EQ(read_file(dir / "state.json"), state_before) << "state.json was replaced although flash.bin was not";
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << "left behind: " << e.path();
}

TEST_F(HostileTest, LinksPlantedInTheRunDirectoryAreNotFollowed) {
  // A PCI function in a sysfs tree of our own (no access works: the lock is taken before any).
  const fs::path sysfs = dir_ / "sys" / "bus" / "pci";
  const fs::path function = sysfs / "devices" / "0000:03:00.0";
  fs::create_directories(function);
  write_file(function / "vendor", {'0', 'x', '1', '5', 'b', '3', '\n'});
  write_file(function / "device", {'0', 'x', '1', '0', '1', '3', '\n'});
  const fs::path run_dir = dir_ / "run";
  const std::vector<std::string> env{"OPENFLINT_SYSFS_ROOT=" + sysfs.string(), "OPENFLINT_RUN_DIR=" + run_dir.string()};
  const std::vector<std::string> query{"-d", "0000:03:00.0", "q"};

  // A first run makes the function's lock file (whatever its name); its access then fails.
  auto run = run_with_env(env, "flint", query);
  expect_orderly(run);
  std::vector<fs::path> locks;
  for (const auto& e : fs::directory_iterator(run_dir / "locks")) locks.push_back(e.path());
  ASSERT_EQ(locks.size(), 1u) << "no lock file was made: " << run.result.err;

  // A dangling link in its place: refused, its target never created.
  const fs::path victim = dir_ / "victim";
  fs::remove(locks[0]);
  fs::create_symlink(victim, locks[0]);
  run = run_with_env(env, "flint", query);
  expect_refused(run, 4, "is a symbolic link");
  EXPECT_EQ(error_lines(run.result.err), 1u) << run.result.err;
  EXPECT_FALSE(fs::exists(fs::symlink_status(victim))) << "the lock link was followed";

  // The lock directory itself replaced by a link to another directory: refused as well.
  const fs::path other = dir_ / "other-locks";
  fs::create_directories(other);
  fs::remove_all(run_dir / "locks");
  fs::create_directory_symlink(other, run_dir / "locks");
  run = run_with_env(env, "flint", query);
  expect_refused(run, 4, "is a symbolic link");
  EXPECT_TRUE(fs::is_empty(other)) << "a lock file was made through the link";
}

}  // namespace
}  // namespace openflint::test
