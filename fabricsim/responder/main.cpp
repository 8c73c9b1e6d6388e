// ibsim-responder: serves a CR-space (plain memory or a saved SimDevice) over vendor MADs on an ibsim node.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cli/ToolBoundary.h"
#include "cli/Version.h"
#include "fabricsim/MadResponder.h"
#include "fabricsim/MemoryCrSpace.h"
#include "fabricsim/MemoryI2cBus.h"
#include "fabricsim/SimDeviceResponder.h"

namespace {

std::atomic<bool> g_stop{false};
void on_signal(int) { g_stop.store(true); }

void usage(std::FILE* out = stderr) {
  std::fprintf(out,
               "Usage: ibsim-responder [--hw-id N] [--size BYTES] [--echo-registers] [--i2c-eeprom ADDR:BYTES]...\n"
               "                       [--i2c-nacks N] [--ca NAME] [--port N] [--trace]\n"
               "   or: ibsim-responder --sim DIR [--power-on] [--power-cut-after N] [--ca NAME] [--port N] [--trace]\n"
               "   or: ibsim-responder --help | --version\n\n"
               "  memory mode: serves a plain CR-space array (hw id at 0xf0014)\n"
               "  --i2c-eeprom ADDR:BYTES: memory mode: an EEPROM (erased, 0xff) at 7-bit ADDR on I2C port #1\n"
               "             (ExtPortAccess MADs); repeat for more devices\n"
               "  --i2c-nacks N: after each write an EEPROM refuses the next N transactions (its write cycle)\n"
               "  --sim DIR: serves the simulated device saved in DIR (SimDevice::save_state) and saves\n"
               "             it back there on SIGTERM/SIGINT (answers MGIR; a switch resets on SwReset)\n"
               "  --power-on: power the device on first (the boot ROM runs), like 'hcasim power-on'\n"
               "  --power-cut-after N: cut the device's power after N more flash erase/program ops\n"
               "  --trace: one stderr line per answered MAD (also when OPENFLINT_RESPONDER_TRACE is set and not\n"
               "           empty, e.g. for the responders simfabric starts: their logs are DIR/responder-NODE.log):\n"
               "           class, method, attribute, AttrMod, MAD status; for register access the register id,\n"
               "           method and register status; for other attributes the first data dwords\n"
               "  prints 'ready' once attached\n");
}

bool parse_u32(const char* text, std::uint32_t& out) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(text, &end, 0);
  if (end == text || *end != '\0' || v > 0xffffffffUL) return false;
  out = static_cast<std::uint32_t>(v);
  return true;
}

struct Args {
  std::uint32_t hw_id = 0x209;
  std::uint32_t size = 16u << 20;
  std::uint32_t port = 0;
  std::string ca;
  std::string sim_dir;
  bool echo_registers = false;
  bool trace = false;
  bool power_on = false;
  std::uint32_t power_cut_after = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> eeproms;  // (address, bytes)
  std::uint32_t i2c_nacks = 0;
};

bool parse_eeprom(const std::string& text, Args& a) {
  const auto colon = text.find(':');
  std::uint32_t address = 0;
  std::uint32_t bytes = 0;
  if (colon == std::string::npos || !parse_u32(text.substr(0, colon).c_str(), address) || address > 0x7f ||
      !parse_u32(text.substr(colon + 1).c_str(), bytes) || bytes == 0 || bytes > (1u << 20))
    return false;
  a.eeproms.emplace_back(address, bytes);
  return true;
}

bool parse_args(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--hw-id" && has_value && parse_u32(argv[i + 1], a.hw_id)) { ++i; continue; }
    if (arg == "--size" && has_value && parse_u32(argv[i + 1], a.size)) { ++i; continue; }
    if (arg == "--port" && has_value && parse_u32(argv[i + 1], a.port)) { ++i; continue; }
    if (arg == "--ca" && has_value) { a.ca = argv[++i]; continue; }
    if (arg == "--sim" && has_value) { a.sim_dir = argv[++i]; continue; }
    if (arg == "--i2c-eeprom" && has_value && parse_eeprom(argv[i + 1], a)) { ++i; continue; }
    if (arg == "--i2c-nacks" && has_value && parse_u32(argv[i + 1], a.i2c_nacks)) { ++i; continue; }
    if (arg == "--echo-registers") { a.echo_registers = true; continue; }
    if (arg == "--trace") { a.trace = true; continue; }
    if (arg == "--power-on") { a.power_on = true; continue; }
    if (arg == "--power-cut-after" && has_value && parse_u32(argv[i + 1], a.power_cut_after)) { ++i; continue; }
    return false;
  }
  return true;
}

openflint::ResponderHooks memory_hooks(bool echo_registers) {
  openflint::ResponderHooks hooks;
  hooks.sw_reset = [](std::uint32_t seconds) -> openflint::Result<void> {
    std::printf("sw-reset seconds=%u\n", seconds);
    std::fflush(stdout);
    return {};
  };
  if (echo_registers) {
    // Echo the payload back with its first byte incremented, so a test sees a round trip.
    hooks.register_access = [](std::uint16_t, std::uint8_t, std::uint32_t,
                               std::span<std::uint8_t> payload) -> openflint::Result<void> {
      if (!payload.empty()) payload[0] = static_cast<std::uint8_t>(payload[0] + 1);
      return {};
    };
  }
  return hooks;
}

std::uint32_t be32(std::span<const std::uint8_t> d, std::size_t at) {
  return at + 4 <= d.size() ? (std::uint32_t{d[at]} << 24) | (std::uint32_t{d[at + 1]} << 16) |
                                  (std::uint32_t{d[at + 2]} << 8) | d[at + 3]
                            : 0;
}

// One stderr line per answered MAD. Register access (SMP 0xff52, GMP 0x51): the operation TLV's
// register id, method and status; everything else: the first dwords of the data area as answered
// (CR-space: after the 8-byte key).
void trace_line(std::uint8_t cls, std::uint8_t method, std::uint16_t attr, std::uint32_t attr_mod,
                std::uint16_t status, std::span<const std::uint8_t> data) {
  const bool smp = cls == 0x01 || cls == 0x81;
  std::string what;
  char buf[96];
  if ((smp && attr == 0xff52) || (!smp && attr == 0x51)) {
    const std::uint32_t op0 = be32(data, 0);
    const std::uint32_t op1 = be32(data, 4);
    std::snprintf(buf, sizeof buf, " reg=0x%04x reg_method=%u reg_status=0x%02x", op1 >> 16, (op1 >> 8) & 0x7f,
                  (op0 >> 8) & 0x7f);
    what = buf;
  } else {
    const std::size_t skip = (attr == 0xff50 || attr == 0x50) ? 8 : 0;
    what = " data=";
    for (std::size_t i = 0; i < 4; ++i) {
      std::snprintf(buf, sizeof buf, "%s%08x", i == 0 ? "" : ",", be32(data, skip + i * 4));
      what += buf;
    }
  }
  std::fprintf(stderr, "mad class=0x%02x method=%u attr=0x%04x mod=0x%08x status=0x%04x%s\n", cls, method, attr,
               attr_mod, status, what.c_str());
}

int fail(const openflint::Error& e) {
  std::fprintf(stderr, "ibsim-responder: %s\n", e.message().c_str());
  return 1;
}

int serve(openflint::CrSpaceBackend& backend, openflint::ResponderHooks hooks, const Args& a) {
  if (a.trace) hooks.trace = trace_line;
  auto responder = openflint::MadResponder::attach(backend, std::move(hooks), a.ca, static_cast<int>(a.port));
  if (!responder) return fail(responder.error());
  std::printf("ready\n");
  std::fflush(stdout);
  auto served = responder->serve(g_stop);
  if (!served) return fail(served.error());
  std::printf("stopped after %llu answers\n", static_cast<unsigned long long>(responder->answered()));
  std::fflush(stdout);
  return 0;
}

}  // namespace

namespace sim = openflint::sim;

namespace {

int tool_main(int argc, char** argv) {
  if (auto done = openflint::cli::answer_help_or_version(argc, argv, "ibsim-responder", usage)) return *done;
  Args a;
  if (!parse_args(argc, argv, a)) {
    usage();
    return 2;
  }
  if (const char* t = std::getenv("OPENFLINT_RESPONDER_TRACE"); t != nullptr && *t != '\0') a.trace = true;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);

  if (a.sim_dir.empty()) {
    openflint::MemoryCrSpace crspace(a.size, a.hw_id);
    auto hooks = memory_hooks(a.echo_registers);
    openflint::MemoryI2cBus bus(a.i2c_nacks);
    for (const auto& [address, bytes] : a.eeproms) bus.add_device(static_cast<std::uint8_t>(address), bytes);
    if (!a.eeproms.empty()) hooks.i2c_bus = [&bus] { return &bus; };
    return serve(crspace, std::move(hooks), a);
  }
  auto device = openflint::SimDeviceResponder::load(a.sim_dir);
  if (!device) return fail(device.error());
  sim::SimDevice& sim = (*device)->device();
  if (a.power_on) sim.power_cycle();
  if (a.power_cut_after != 0) {
    auto faults = sim.faults();
    faults.power_cut_after_ops = a.power_cut_after;
    sim.set_faults(faults);
  }
  auto hooks = (*device)->hooks();
  const int rc = serve((*device)->backend(), std::move(hooks), a);
  auto saved = (*device)->save();
  if (!saved) return fail(saved.error());
  std::printf("resets %llu\nsaved state to %s\n", static_cast<unsigned long long>((*device)->resets()),
              a.sim_dir.c_str());
  return rc;
}

}  // namespace

// An exception nothing turned into an error is one "-E-" line and exit 70, not an abort.
int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("ibsim-responder", [&] { return tool_main(argc, argv); });
}
