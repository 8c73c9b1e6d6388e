// PowerCutHarness: restore "A burned", arm a power cut after k flash ops, burn B, power-cycle.
#include "tests/support/PowerCutHarness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "devices/DeviceCatalog.h"
#include "fwops/burn/FailsafeBurner.h"
#include "image/FirmwareImage.h"
#include "sim/SimDevice.h"

namespace openflint::test {
namespace {

using sim::SimDevice;

std::uint64_t flash_ops(const SimDevice& dev) {
  const auto c = dev.counters().flash;
  return c.erases + c.programs;
}

struct Snapshot {
  std::vector<std::uint8_t> flash;
  std::uint32_t boot_register = 0;
};

Snapshot take(SimDevice& dev) {
  Snapshot s;
  const auto c = dev.flash().contents();
  s.flash.assign(c.begin(), c.end());
  if (dev.info().boot_address.address != 0) s.boot_register = dev.cr_space().peek(dev.info().boot_address.address);
  return s;
}

void restore(SimDevice& dev, const Snapshot& s) {
  dev.power_cycle();
  ASSERT_TRUE(dev.flash().set_contents(s.flash).has_value());
  if (dev.info().boot_address.address != 0) dev.cr_space().poke(dev.info().boot_address.address, s.boot_register);
  dev.reset();
}

std::string version_of(Bytes image) {
  auto q = query_image(image);
  return q && q->fw_version ? q->fw_version->to_string() : "?";
}

std::string running_version(const SimDevice& dev) {
  const auto& boot = dev.boot_state();
  if (boot.recovery || !boot.running || !boot.running->fw_version) return "recovery";
  return boot.running->fw_version->to_string();
}

// The board's own identity, given on the first burn where the format carries it in the copy
// (FS1/FS2: GUIDs/MACs unlike either image's, and a VSD), the image's device data otherwise.
BurnOptions first_burn_options(Bytes a) {
  BurnOptions o;
  const auto q = query_image(a);
  if (q && (q->format == ImageFormat::Fs1 || q->format == ImageFormat::Fs2)) {
    o.identity.base_guid = 0x0002c90300b0a4d0ull;
    if (q->format == ImageFormat::Fs2) o.identity.base_mac = 0x0002c9b0a4d0ull;
    o.identity.vsd = "power-cut board";
  } else {
    o.identity.use_image_guids = true;
  }
  return o;
}

// What the running copy says the board is: GUIDs/MACs and VSDs. FS3/FS4 keep the board's VSD in
// its device data (DEV_INFO); the image VSD (IMAGE_INFO) is the new image's own, as each build's
// samples carry theirs. FS1/FS2 keep the board's VSD in the copy.
std::string identity_of(const SimDevice& dev) {
  const auto& boot = dev.boot_state();
  if (boot.recovery || !boot.running) return "recovery";
  const ImageQuery& q = *boot.running;
  const bool vsd_in_copy = q.format == ImageFormat::Fs1 || q.format == ImageFormat::Fs2;
  std::string text = "guid " + (q.base_guid ? std::to_string(q.base_guid->base) : "-") + " mac " +
                     (q.base_mac ? std::to_string(q.base_mac->base) : "-") + " vsd '" +
                     (vsd_in_copy ? q.image_vsd : std::string("(image's)")) + "' dev vsd '" + q.device_vsd + "' uids";
  for (const auto u : q.uids) text += " " + std::to_string(u);
  return text;
}

}  // namespace

PowerCutOutcome run_power_cuts(const std::string& model, Bytes a, Bytes b, int min_points, int reburn_every,
                               const BurnOptions& burn_b, const BurnTransport& through, int tail_points) {
  PowerCutOutcome out;
  auto created = SimDevice::create(model);
  if (!created) {
    out.failures.push_back("create: " + created.error().message());
    return out;
  }
  SimDevice& dev = **created;
  RegisterAccess& bus = through ? through(dev) : static_cast<RegisterAccess&>(dev);
  const std::string va = version_of(a), vb = version_of(b);
  const BurnOptions& options = burn_b;
  const bool gives = burn_b.identity.base_guid || burn_b.identity.base_mac || burn_b.identity.vsd;
  auto first = burn_image(bus, dev.info(), a, first_burn_options(a));
  if (!first) {
    out.failures.push_back("burn A: " + first.error().message());
    return out;
  }
  dev.reset();
  if (running_version(dev) != va) out.failures.push_back("after burning A the device runs " + running_version(dev));
  const Snapshot with_a = take(dev);
  const std::string board = identity_of(dev);

  const std::uint64_t before = flash_ops(dev);
  auto clean = burn_image(bus, dev.info(), b, options);
  if (!clean) {
    out.failures.push_back("unfaulted burn B: " + clean.error().message());
    return out;
  }
  out.total_ops = flash_ops(dev) - before;
  dev.reset();
  if (running_version(dev) != vb) out.failures.push_back("after an unfaulted burn of B the device runs " + running_version(dev));
  const std::string board_b = identity_of(dev);
  if (!gives && board_b != board) out.failures.push_back("an unfaulted burn of B changed the board: " + board_b);
  if (gives && board_b == board) out.failures.push_back("the given identity was not burned: " + board_b);

  std::set<std::uint64_t> cuts;
  const std::uint64_t n = std::max<std::uint64_t>(2, static_cast<std::uint64_t>(min_points));
  for (std::uint64_t i = 0; i < n; ++i) cuts.insert(1 + i * (out.total_ops - 1) / (n - 1));
  // A given identity is written in the last few ops (the DEV_INFO step): cut at every one of them.
  const std::uint64_t tail = std::max<std::uint64_t>(gives ? 48 : 0, static_cast<std::uint64_t>(std::max(tail_points, 0)));
  for (std::uint64_t j = 0; j < tail && j < out.total_ops; ++j) cuts.insert(out.total_ops - j);
  int index = 0;
  for (const std::uint64_t k : cuts) {
    restore(dev, with_a);
    sim::SimFaults faults;
    faults.power_cut_after_ops = k;
    dev.set_faults(faults);
    auto cut = burn_image(bus, dev.info(), b, options);
    dev.set_faults({});
    dev.power_cycle();
    ++out.cut_points;
    const std::string runs = running_version(dev);
    if (runs == va) {
      ++out.booted_a;
    } else if (runs == vb) {
      ++out.booted_b;
    } else {
      ++out.recovery;
      if (out.failures.size() < 5) out.failures.push_back("cut after " + std::to_string(k) + " ops: device runs " + runs);
    }
    if (runs != "recovery" && identity_of(dev) != board && identity_of(dev) != board_b) {
      ++out.identity_lost;
      if (out.failures.size() < 5)
        out.failures.push_back("cut after " + std::to_string(k) + " ops: booted " + identity_of(dev) + ", board was " + board);
    }
    if (cut && k < out.total_ops && out.failures.size() < 5)
      out.failures.push_back("cut after " + std::to_string(k) + " ops: the burn reported success");
    if (reburn_every > 0 && index++ % reburn_every == 0) {
      auto again = burn_image(bus, dev.info(), b, options);
      dev.reset();
      if (!again || running_version(dev) != vb) {
        ++out.reburn_failures;
        if (out.failures.size() < 5)
          out.failures.push_back("re-burn after cut " + std::to_string(k) + ": " +
                                 (again ? "device runs " + running_version(dev) : again.error().message()));
      }
    }
  }
  return out;
}

}  // namespace openflint::test
