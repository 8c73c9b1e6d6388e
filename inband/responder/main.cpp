// ibsim-responder: serves an in-memory CR-space over vendor MADs on an ibsim node (run under umad2sim).
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "inband/MadResponder.h"
#include "inband/MemoryCrSpace.h"

namespace {

std::atomic<bool> g_stop{false};
void on_signal(int) { g_stop.store(true); }

void usage() {
  std::fprintf(stderr,
               "usage: ibsim-responder [--hw-id N] [--size BYTES] [--echo-registers] [--ca NAME] [--port N]\n"
               "  serves CR-space reads/writes (hw id at 0xf0014); prints 'ready' once attached\n");
}

bool parse_u32(const char* text, std::uint32_t& out) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(text, &end, 0);
  if (end == text || *end != '\0' || v > 0xffffffffUL) return false;
  out = static_cast<std::uint32_t>(v);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint32_t hw_id = 0x209;
  std::uint32_t size = 16u << 20;
  std::uint32_t port = 0;
  std::string ca;
  bool echo_registers = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--hw-id" && has_value && parse_u32(argv[i + 1], hw_id)) { ++i; continue; }
    if (arg == "--size" && has_value && parse_u32(argv[i + 1], size)) { ++i; continue; }
    if (arg == "--port" && has_value && parse_u32(argv[i + 1], port)) { ++i; continue; }
    if (arg == "--ca" && has_value) { ca = argv[++i]; continue; }
    if (arg == "--echo-registers") { echo_registers = true; continue; }
    usage();
    return 2;
  }
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);

  openflint::MemoryCrSpace crspace(size, hw_id);
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
  auto responder = openflint::MadResponder::attach(crspace, std::move(hooks), ca, static_cast<int>(port));
  if (!responder) {
    std::fprintf(stderr, "ibsim-responder: %s\n", responder.error().message().c_str());
    return 1;
  }
  std::printf("ready\n");
  std::fflush(stdout);
  auto served = responder->serve(g_stop);
  if (!served) {
    std::fprintf(stderr, "ibsim-responder: %s\n", served.error().message().c_str());
    return 1;
  }
  std::printf("stopped after %llu answers\n", static_cast<unsigned long long>(responder->answered()));
  return 0;
}
