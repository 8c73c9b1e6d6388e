// bench_burn: burn a real Spectrum FS3 image into a simulated Spectrum, then upgrade it; prints
// flash transactions vs the minimum and rewritten sectors vs sectors that really differ.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "fwops/burn/FailsafeBurner.h"
#include "image/MfaArchive.h"
#include "sim/SimDevice.h"

namespace {

using namespace openflint;

std::vector<std::uint8_t> extract(const std::string& archive, const std::string& psid, std::string& found_psid) {
  auto mfa = MfaArchive::open(archive);
  if (!mfa) return {};
  const MfaBoard* board = nullptr;
  for (const auto& b : mfa->boards())
    if (psid.empty() ? b.firmware() != nullptr : b.psid == psid) board = &b;
  if (board == nullptr) return {};
  found_psid = board->psid;
  std::vector<std::uint8_t> out;
  auto r = mfa->extract(*board, [&](Bytes chunk) -> Result<void> {
    out.insert(out.end(), chunk.begin(), chunk.end());
    return {};
  });
  return r ? out : std::vector<std::uint8_t>{};
}

struct Ops {
  std::uint64_t erases, programs, bytes, gateway;
};

Ops ops(const sim::SimDevice& d) {
  const auto c = d.counters();
  return {c.flash.erases, c.flash.programs, c.flash.bytes_programmed, c.gateway_commands};
}

void burn(sim::SimDevice& dev, const std::vector<std::uint8_t>& image, const char* what, std::uint64_t min_programs,
          std::uint64_t differing_sectors) {
  const Ops before = ops(dev);
  const auto t0 = std::chrono::steady_clock::now();
  BurnOptions options;  // the first burn is into blank flash: the image's device data
  options.identity.use_image_guids = true;
  auto r = burn_image(dev, dev.info(), image, options);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r) {
    std::printf("%s: burn failed: %s\n", what, r.error().message().c_str());
    return;
  }
  const Ops after = ops(dev);
  const std::uint64_t erases = after.erases - before.erases, programs = after.programs - before.programs;
  std::printf("%s: %.2f s, %llu gateway commands, %llu page programs (min %llu 16-byte transactions / 256-byte "
              "pages %llu), %llu bytes programmed, %llu sector erases; report: %llu erased, %llu program-only, %llu unchanged\n",
              what, s, static_cast<unsigned long long>(after.gateway - before.gateway),
              static_cast<unsigned long long>(programs), static_cast<unsigned long long>(min_programs),
              static_cast<unsigned long long>((min_programs + 15) / 16),
              static_cast<unsigned long long>(after.bytes - before.bytes), static_cast<unsigned long long>(erases),
              static_cast<unsigned long long>(r->sectors_erased), static_cast<unsigned long long>(r->sectors_program_only),
              static_cast<unsigned long long>(r->sectors_unchanged));
  if (differing_sectors != 0)
    std::printf("%s: sectors written (erased or programmed) vs sectors that differ between the images: %llu / %llu "
                "= %.2f\n",
                what, static_cast<unsigned long long>(r->sectors_erased + r->sectors_program_only),
                static_cast<unsigned long long>(differing_sectors),
                static_cast<double>(r->sectors_erased + r->sectors_program_only) / static_cast<double>(differing_sectors));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : OPENFLINT_BENCH_SHARED "/firmware/real";
  std::string psid;
  const auto a = extract(dir + "/fw-SPC-rel-13_2000_1658-EVB.mfa", "", psid);
  std::string psid_b;
  const auto b = extract(dir + "/fw-SPC-rel-13_2000_2162-EVB.mfa", psid, psid_b);
  if (a.empty() || b.empty()) {
    std::fprintf(stderr, "bench_burn: cannot extract the Spectrum images from %s\n", dir.c_str());
    return 2;
  }
  std::printf("board %s: 13.2000.1658 (%zu bytes) -> 13.2000.2162 (%zu bytes)\n", psid.c_str(), a.size(), b.size());
  std::uint64_t non_blank = 0;
  for (auto byte : a) non_blank += byte != 0xff;
  // Independent count: 4 KiB sectors where the two files differ (same slot layout: the copy
  // at the other slot gets B's bytes where A's stale copy may sit).
  std::uint64_t differing = 0;
  for (std::size_t s = 0; s < std::max(a.size(), b.size()); s += 4096) {
    bool differ = false;
    for (std::size_t i = s; i < s + 4096 && !differ; ++i) {
      const std::uint8_t x = i < a.size() ? a[i] : 0xff, y = i < b.size() ? b[i] : 0xff;
      differ = x != y;
    }
    differing += differ;
  }
  auto dev = sim::SimDevice::create("spectrum");
  if (!dev) return 2;
  burn(**dev, a, "first burn 1658 (blank flash)", non_blank / 16, 0);
  (*dev)->reset();
  burn(**dev, b, "upgrade 1658 -> 2162 (into the empty slot)", 0, differing);
  (*dev)->reset();
  burn(**dev, a, "downgrade 2162 -> 1658 (over the stale 1658 copy)", 0, differing);
  std::printf("sectors that differ between the two files: %llu\n", static_cast<unsigned long long>(differing));
  return 0;
}
