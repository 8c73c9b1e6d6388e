// TestSupport: temp dirs, subprocesses and paths for tests.
#include "tests/support/TestSupport.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <random>
#include <stdexcept>

extern char** environ;

namespace openflint::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "openflint-test-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

CommandResult run_tool(const std::string& name, std::vector<std::string> args) {
  args.insert(args.begin(), bin(name).string());
  return run_command(args);
}

std::filesystem::path sample_image(const std::string& name) {
  return std::filesystem::path(OPENFLINT_BIN_DIR).parent_path() / "firmware-samples" / (name + ".bin");
}

CommandResult run_command(const std::vector<std::string>& argv) { return run_command(argv, {}); }

std::vector<std::string> environment_with(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  auto name_of = [](const std::string& entry) { return entry.substr(0, entry.find('=')); };
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    bool replaced = false;
    for (const auto& x : extra) replaced = replaced || name_of(x) == name_of(entry);
    if (!replaced) env.push_back(entry);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

SpawnSpec background_tool(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                          const std::filesystem::path& out_file, const std::filesystem::path& err_file) {
  SpawnSpec spec;
  spec.argv = argv;
  for (const auto& entry : env) {
    const auto eq = entry.find('=');
    spec.env[entry.substr(0, eq)] = eq == std::string::npos ? std::string() : entry.substr(eq + 1);
  }
  spec.output = out_file;
  spec.error = err_file;
  spec.truncate = true;
  spec.die_with_parent = true;
  return spec;
}

CommandResult run_command(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  CommandResult result;
  SpawnSpec spec = background_tool(argv, env, {}, {});  // the environment as background tools get it
  spec.die_with_parent = false;                         // a captured run: posix_spawn, no file
  auto run = ChildProcess::run(spec, 0);                // no time limit: ctest's own applies
  if (!run) {
    result.err = "cannot start " + argv[0];
    return result;
  }
  result.exit_code = run->exit_code;
  result.out = std::move(run->out);
  result.err = std::move(run->err);
  return result;
}

fs::path bin(const std::string& name) { return fs::path(OPENFLINT_BIN_DIR) / name; }

std::optional<fs::path> shared_dir() {
  const char* env = std::getenv("OPENFLINT_SHARED");
  fs::path p = env != nullptr ? fs::path(env) : fs::path(OPENFLINT_SHARED_DIR);
  if (fs::is_directory(p)) return fs::canonical(p);
  return std::nullopt;
}

std::optional<fs::path> real_firmware_dir() {
  auto shared = shared_dir();
  if (!shared) return std::nullopt;
  fs::path p = *shared / "firmware" / "real";
  if (fs::is_directory(p)) return p;
  return std::nullopt;
}

bool have_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::string all(path);
  std::size_t start = 0;
  while (start <= all.size()) {
    std::size_t end = all.find(':', start);
    if (end == std::string::npos) end = all.size();
    fs::path candidate = fs::path(all.substr(start, end - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

namespace {

// The whole file through the stream buffer in blocks (sizes are not trusted: /proc and sysfs files
// report none). The samples are 16-32 MiB, and a character-by-character copy into a growing
// container cost seconds per file in the -O0 ASan build of the test bodies.
bool read_whole(const fs::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  out = std::move(text).str();
  return true;
}

}  // namespace

std::vector<std::uint8_t> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  const std::streamoff size = in.tellg();
  if (size > 0) {  // a regular file: one read into the vector
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
    in.seekg(0);
    if (in.read(reinterpret_cast<char*>(bytes.data()), size)) return bytes;
  }
  std::string text;
  if (!read_whole(path, text)) throw std::runtime_error("cannot read " + path.string());
  return {text.begin(), text.end()};
}

std::string read_text(const fs::path& path) {
  std::string text;
  if (!read_whole(path, text)) return {};
  return text;
}

void write_file(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

}  // namespace openflint::test
