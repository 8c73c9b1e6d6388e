// BarServer: the watch list, the polling thread and the command handshake with the model.
#include "sim/BarServer.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <system_error>
#include <utility>

#include "core/HexString.h"

namespace openflint::sim {
namespace {

// Registers the model held at start that join the watch list; the rest of the model's
// registers are still copied into the file, their stores are not relayed.
constexpr std::size_t kMaxModelRegisters = 1024;
// What CMD reads after a command the model refused.
constexpr std::uint32_t kFailedCommand = 0xffffffff;

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

BarServer::BarServer(SimDevice& device, SharedBarFile file, BarServerOptions options)
    : device_(&device), file_(std::move(file)), options_(std::move(options)), gateway_(device.info().flash_gateway) {}

Result<std::unique_ptr<BarServer>> BarServer::start(SimDevice& device, BarServerOptions options) {
  const std::string what = "serving the BAR of simulated " + std::string(device.info().name);
  if (!device.info().flash_gateway.is_spi_gateway()) {
    return make_error(ErrorCode::NotSupported, what + ": no SPI flash gateway to serve");
  }
  OF_ASSIGN_CTX(SharedBarFile file, SharedBarFile::create(options.directory, options.bar_size), what);
  std::unique_ptr<BarServer> server(new BarServer(device, std::move(file), std::move(options)));
  OF_TRY_CTX(server->build_watch_list(), what);
  server->fill();
  try {
    server->thread_ = std::thread([s = server.get()] { s->serve(); });
  } catch (const std::system_error& e) {
    return make_error(ErrorCode::Io, what + ": starting the serving thread: " + e.what());
  }
  return server;
}

BarServer::~BarServer() { stop(); }

void BarServer::stop() {
  if (!thread_.joinable()) return;
  stop_.store(true, std::memory_order_relaxed);
  thread_.join();
  (void)serve_once();  // stores (or a command) issued just before the stop reach the model
  serve_resyncs();
}

Result<void> BarServer::build_watch_list() {
  std::vector<std::uint32_t> addresses{gateway_.addr_addr};
  for (std::uint32_t i = 0; i < gateway_.data_dwords; ++i) addresses.push_back(gateway_.data_addr + 4 * i);
  if (gateway_.lock == FlashLockKind::Semaphore) addresses.push_back(gateway_.semaphore_addr);
  if (gateway_.bank_select_addr != 0) addresses.push_back(gateway_.bank_select_addr);
  if (device_->info().boot_address.address != 0) addresses.push_back(device_->info().boot_address.address);
  std::size_t from_model = 0;
  for (const auto& [address, value] : device_->cr_space().registers()) {
    if (from_model++ == kMaxModelRegisters) break;
    addresses.push_back(address);
  }
  addresses.insert(addresses.end(), options_.extra_registers.begin(), options_.extra_registers.end());
  std::sort(addresses.begin(), addresses.end());
  addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());
  std::erase(addresses, gateway_.cmd_addr);
  addresses.push_back(gateway_.cmd_addr);  // checked with the others, watched on its own
  for (std::uint32_t address : addresses) {
    if (!file_.contains(address)) {
      return make_error(ErrorCode::InvalidArgument, "register " + hex_string(address) + " is outside the " +
                                                        hex_string(file_.size()) + "-byte BAR");
    }
    if (address != gateway_.cmd_addr) watched_.push_back(Watched{address, 0});
  }
  return {};
}

// The model's value of a register, read without side effects: CMD and the semaphores (the
// flash gateway's, the tools HCR's) are test-and-set on a read, so they are peeked; the rest go
// through read32 (the hw id is a read hook, not storage).
std::uint32_t BarServer::model_value(std::uint32_t address) const {
  const ToolsHcrLayout* hcr = device_->info().tools_hcr;
  const bool takes_lock = address == gateway_.cmd_addr ||
                          (gateway_.lock == FlashLockKind::Semaphore && address == gateway_.semaphore_addr) ||
                          (hcr != nullptr && address == hcr->semaphore);
  if (!takes_lock) {
    if (auto v = device_->read32(address)) return *v;
  }
  return device_->peek32(address);
}

void BarServer::fill() {
  for (const auto& [address, value] : device_->cr_space().registers()) {
    if (file_.contains(address)) file_.store_relaxed(address, model_value(address));
  }
  for (Watched& w : watched_) w.shadow = file_.load_relaxed(w.address);
  cmd_shadow_ = file_.load_relaxed(gateway_.cmd_addr);
  mirror_model();
}

// Shows the model's hw id and watched registers in the file. Compare-and-swap against the
// shadow: a tool store made since the last poll is kept (and relayed by the next poll).
void BarServer::mirror_model() {
  if (file_.contains(kHwIdAddr)) file_.store_relaxed(kHwIdAddr, model_value(kHwIdAddr));
  auto mirror = [this](std::uint32_t address, std::uint32_t& shadow) {
    const std::uint32_t v = model_value(address);
    if (v != shadow && file_.replace_release(address, shadow, v)) shadow = v;
  };
  for (Watched& w : watched_) mirror(w.address, w.shadow);
  mirror(gateway_.cmd_addr, cmd_shadow_);
}

void BarServer::resync_from_model() {
  if (!thread_.joinable()) {
    mirror_model();
    return;
  }
  const std::uint64_t ticket = resyncs_requested_.fetch_add(1, std::memory_order_acq_rel) + 1;
  while (resyncs_done_.load(std::memory_order_acquire) < ticket) std::this_thread::yield();
}

// The serving loop answers a resync at the top of each round and relays stores after it: the
// second resync is answered only after a relay pass that began after the first.
void BarServer::settle() {
  if (!thread_.joinable()) {
    (void)serve_once();
    return;
  }
  resync_from_model();
  resync_from_model();
}

void BarServer::serve_resyncs() {
  const std::uint64_t wanted = resyncs_requested_.load(std::memory_order_acquire);
  if (wanted == resyncs_done_.load(std::memory_order_relaxed)) return;
  mirror_model();
  resyncs_done_.store(wanted, std::memory_order_release);
}

void BarServer::wake() {
  const auto until = std::chrono::steady_clock::now() + options_.wake_window;
  awake_until_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(until.time_since_epoch()).count(),
                        std::memory_order_relaxed);
}

bool BarServer::awake() const {
  const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::steady_clock::now().time_since_epoch()).count();
  return now < awake_until_ns_.load(std::memory_order_relaxed);
}

// Idle: spin (a command a microsecond after the last is served at once), then yield, then
// after idle_sleep_after (unless woken) sleep between polls: an idle server costs a few percent of a CPU, and
// the tool's BUSY wait (at least FlashTimeouts::gateway_busy) covers the wake-up.
void BarServer::serve() {
  std::uint32_t idle = 0;
  auto idle_since = std::chrono::steady_clock::now();
  while (!stop_.load(std::memory_order_relaxed)) {
    serve_resyncs();
    if (serve_once()) {
      idle = 0;
    } else if (idle < options_.spin_polls) {
      if (idle++ == 0) idle_since = std::chrono::steady_clock::now();
      cpu_relax();
    } else if (options_.idle_sleep.count() > 0 && !awake() &&
               std::chrono::steady_clock::now() - idle_since >= options_.idle_sleep_after) {
      std::this_thread::sleep_for(options_.idle_sleep);
    } else {
      std::this_thread::yield();
    }
  }
}

// CMD is loaded first (acquire): every store the tool made before its CMD store is then
// visible to the scan of the other registers.
bool BarServer::serve_once() {
  const std::uint32_t cmd = file_.load_acquire(gateway_.cmd_addr);
  const bool relayed = relay_plain_stores();
  if (cmd == cmd_shadow_) return relayed;
  if (((cmd >> gateway_.layout.busy_bit) & 1u) != 0) {
    run_command(cmd);
  } else {
    cmd_shadow_ = cmd;  // a plain store, e.g. the CmdBit31 lock release
    relay(gateway_.cmd_addr, cmd);
  }
  return true;
}

bool BarServer::relay_plain_stores() {
  bool any = false;
  for (Watched& w : watched_) {
    const std::uint32_t v = file_.load_relaxed(w.address);
    if (v == w.shadow) continue;
    w.shadow = v;
    relay(w.address, v);
    any = true;
  }
  return any;
}

void BarServer::relay(std::uint32_t address, std::uint32_t value) {
  if (device_->write32(address, value)) {
    stores_relayed_.fetch_add(1, std::memory_order_relaxed);
  } else {
    failed_accesses_.fetch_add(1, std::memory_order_relaxed);
  }
}

void BarServer::run_command(std::uint32_t cmd) {
  if (gateway_.lock == FlashLockKind::Semaphore) take_semaphore_for_tool();
  // ADDR, DATA, then CMD: the order the gateway expects, whatever the polls saw before.
  bool ok = static_cast<bool>(device_->write32(gateway_.addr_addr, file_.load_relaxed(gateway_.addr_addr)));
  for (std::uint32_t i = 0; i < gateway_.data_dwords && ok; ++i) {
    const std::uint32_t address = gateway_.data_addr + 4 * i;
    ok = static_cast<bool>(device_->write32(address, file_.load_relaxed(address)));
  }
  if (!ok || !device_->write32(gateway_.cmd_addr, cmd)) {
    // All ones, as from a device gone from the bus: BUSY stays set, and any store the tool
    // makes next (even the same command again) differs from it and is seen.
    failed_accesses_.fetch_add(1, std::memory_order_relaxed);
    cmd_shadow_ = kFailedCommand;
    (void)file_.replace_release(gateway_.cmd_addr, cmd, kFailedCommand);
    return;
  }
  publish(gateway_.addr_addr);
  for (std::uint32_t i = 0; i < gateway_.data_dwords; ++i) publish(gateway_.data_addr + 4 * i);
  cmd_shadow_ = device_->peek32(gateway_.cmd_addr);
  commands_served_.fetch_add(1, std::memory_order_relaxed);
  // BUSY clears last. If the tool already stored CMD again (it gave up polling and released
  // the lock), its store stays and differs from the shadow: the next poll relays it.
  (void)file_.replace_release(gateway_.cmd_addr, cmd, cmd_shadow_);
}

// The tool's semaphore read (0: taken) had no side effect on the model; take it now, on the
// tool's behalf, and show it held so the tool's release (a store of 0) is seen as a change.
void BarServer::take_semaphore_for_tool() {
  Watched* sem = find(gateway_.semaphore_addr);
  if (sem == nullptr || sem->shadow != 0) return;  // already shown held
  if (!device_->read32(gateway_.semaphore_addr)) failed_accesses_.fetch_add(1, std::memory_order_relaxed);
  sem->shadow = 1;
  file_.store_relaxed(gateway_.semaphore_addr, 1);
}

void BarServer::publish(std::uint32_t address) {
  const std::uint32_t v = device_->peek32(address);
  file_.store_relaxed(address, v);
  if (Watched* w = find(address)) w->shadow = v;
}

BarServer::Watched* BarServer::find(std::uint32_t address) {
  auto it = std::lower_bound(watched_.begin(), watched_.end(), address,
                             [](const Watched& w, std::uint32_t a) { return w.address < a; });
  return it != watched_.end() && it->address == address ? &*it : nullptr;
}

}  // namespace openflint::sim
