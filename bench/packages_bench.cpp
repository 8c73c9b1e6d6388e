// packages_bench: repacks an MFA archive as MFA2 (time, peak RSS) and reads components back, counting the stored bytes each read takes.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "core/InputFile.h"
#include "image/FirmwarePackage.h"
#include "image/Mfa2Package.h"
#include "image/Mfa2Repack.h"

using namespace openflint;

namespace {

// A file whose reads are counted: how much of the stored (compressed) package a step takes.
class CountingSource final : public ByteSource {
 public:
  explicit CountingSource(InputFile file) : file_(std::move(file)) {}
  std::uint64_t size() const override { return file_.size(); }
  Result<void> read(std::uint64_t offset, std::span<std::uint8_t> out) const override {
    read_ += out.size();
    return file_.read(offset, out);
  }
  std::uint64_t taken() const { return read_; }
  void reset() const { read_ = 0; }

 private:
  InputFile file_;
  mutable std::uint64_t read_ = 0;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Runs `step` in a child process so that its peak RSS is its own; false when it failed.
bool in_child(const char* what, const std::function<bool()>& step) {
  std::fflush(stdout);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const bool ok = step();
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    std::printf("  %s: peak RSS %.1f MiB\n", what, static_cast<double>(usage.ru_maxrss) / 1024.0);
    std::fflush(stdout);
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool create(const std::string& archive, const std::string& out) {
  const auto start = std::chrono::steady_clock::now();
  auto source = open_package(archive);
  if (!source) {
    std::fprintf(stderr, "error: %s\n", source.error().message().c_str());
    return false;
  }
  auto made = repack_as_mfa2(**source, {}, std::uint64_t{64} << 20, out);
  if (!made) {
    std::fprintf(stderr, "error: %s\n", made.error().message().c_str());
    return false;
  }
  const double s = seconds_since(start);
  std::printf("create: %zu boards, %.1f MiB of images -> %s, %.2f MiB (%.1f MiB/s of images, %.2f s)\n",
              made->psids.size(), static_cast<double>(made->cb_size) / 1048576.0, out.c_str(),
              static_cast<double>(made->size) / 1048576.0, static_cast<double>(made->cb_size) / 1048576.0 / s, s);
  return true;
}

// Opens the package (the SHA-256 check reads the stored CB once), then extracts the component of
// the `which`-th device (in CB order) and reports what the extraction read and decoded.
bool read_one(const std::string& path, std::size_t which) {
  auto file = InputFile::open(path, Mfa2Package::kMaxPackageSize, "MFA2 package");
  if (!file) return false;
  auto counting = std::make_shared<CountingSource>(std::move(*file));
  auto start = std::chrono::steady_clock::now();
  auto package = Mfa2Package::from_source(counting);
  if (!package) {
    std::fprintf(stderr, "error: %s\n", package.error().message().c_str());
    return false;
  }
  const double open_s = seconds_since(start);
  const std::uint64_t open_read = counting->taken();
  // The devices in CB order: the component the `which`-th one starts.
  std::vector<std::pair<std::uint64_t, const Mfa2Device*>> order;
  for (const auto& d : package->devices())
    order.push_back({package->components().at(d.components.front()).cb_offset, &d});
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (which >= order.size()) which = order.size() - 1;
  const Mfa2Device& device = *order[which].second;
  auto component = package->firmware(device, UINT64_MAX);
  if (!component) return false;
  counting->reset();
  start = std::chrono::steady_clock::now();
  std::uint64_t got = 0;
  auto done = package->extract(**component, [&got](Bytes chunk) -> Result<void> {
    got += chunk.size();
    return {};
  });
  if (!done) {
    std::fprintf(stderr, "error: %s\n", done.error().message().c_str());
    return false;
  }
  const double s = seconds_since(start);
  const std::uint64_t decoded = (*component)->cb_offset + 16 + (*component)->size;
  std::printf("read device %zu of %zu (%s): open %.2f s (%.2f MiB read: descriptors, xz index, SHA-256 pass); "
              "extract %.2f s, %.1f MiB out, CB decoded up to %.1f of %.1f MiB (%.0f%%), stored bytes read %.2f MiB\n",
              which + 1, order.size(), device.psid.c_str(), open_s, static_cast<double>(open_read) / 1048576.0, s,
              static_cast<double>(got) / 1048576.0, static_cast<double>(decoded) / 1048576.0,
              static_cast<double>(package->cb_unpacked_size()) / 1048576.0,
              100.0 * static_cast<double>(decoded) / static_cast<double>(package->cb_unpacked_size()),
              static_cast<double>(counting->taken()) / 1048576.0);
  return true;
}

// The largest .mfa in the shared firmware folder.
std::string largest_archive() {
  std::string best;
  std::uintmax_t size = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(OPENFLINT_BENCH_SHARED "/firmware/real", ec))
    if (e.path().extension() == ".mfa" && e.file_size() > size) {
      size = e.file_size();
      best = e.path().string();
    }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string archive = argc > 1 ? argv[1] : largest_archive();
  const std::string out = argc > 2 ? argv[2] : "/tmp/packages_bench.mfa2";
  if (archive.empty()) {
    std::fprintf(stderr, "usage: %s [ARCHIVE.mfa [OUT.mfa2]] (no archive in " OPENFLINT_BENCH_SHARED "/firmware/real)\n",
                 argv[0]);
    return 2;
  }
  std::printf("archive: %s (%.2f MiB)\n", archive.c_str(),
              static_cast<double>(std::filesystem::file_size(archive)) / 1048576.0);
  if (!in_child("create", [&] { return create(archive, out); })) return 1;
  for (const std::size_t which : {std::size_t{0}, std::size_t{1}, SIZE_MAX / 2, SIZE_MAX})
    if (!in_child("read", [&] {
          if (which == SIZE_MAX / 2) {
            auto p = Mfa2Package::open(out);
            return p && read_one(out, p->devices().size() / 2);
          }
          return read_one(out, which);
        }))
      return 1;
  std::filesystem::remove(out);
  return 0;
}
