// BarServer: serves a SimDevice's CR-space as a shared-memory BAR0 file, relaying stores to the model.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <thread>
#include <vector>

#include "core/Result.h"
#include "sim/SharedBarFile.h"
#include "sim/SimDevice.h"

namespace openflint::sim {

struct BarServerOptions {
  std::filesystem::path directory = "/dev/shm";  // where the BAR file is created
  std::uint64_t bar_size = 0x4000000;            // what mstflint maps; sparse, so cheap
  // More plain registers whose stores reach the model (beyond the gateway, lock, bank-select
  // and boot-address registers and the registers the model held at start).
  std::vector<std::uint32_t> extra_registers;
  std::uint32_t spin_polls = 256;   // idle polls spun with a pause before polls yield
  // Idle this long, polls sleep idle_sleep in between (0: never sleep, yield forever).
  std::chrono::milliseconds idle_sleep_after{10};
  std::chrono::microseconds idle_sleep{200};
  // After wake(), polls do not sleep for this long (then idle_sleep_after applies again).
  std::chrono::milliseconds wake_window{5000};
};

// A shared mapping has no read side effects and no write traps, so the server polls:
//  - start() fills the file with the model's registers (big-endian; the hw id at 0xf0014 and
//    every register the model stores) and starts a thread that watches a bounded list: the
//    flash gateway's CMD/ADDR/DATA, the semaphore, bank select, the boot-address register,
//    the model's registers at start and BarServerOptions::extra_registers. Stores elsewhere
//    stay in the file only.
//  - A changed watched register other than CMD is relayed as model write32 (a plain store;
//    stores between two polls merge, the last one wins).
//  - CMD written with BUSY set runs one command: plain stores first, then ADDR, DATA and CMD
//    into the model in that order; then the model's ADDR/DATA are copied back and CMD (BUSY
//    clear) is stored LAST with release ordering (compare-and-swap: a tool that gave up and
//    stored CMD again keeps its store). A command the model refuses (fault injection, powered
//    off) makes CMD read all ones, BUSY set: the tool's bounded poll times out, as on a device
//    gone from the bus, and its next store to CMD is served again.
//  - The lock. CmdBit31: the mapping mirrors the model's CMD, so a held lock reads as bit 31
//    set; a tool that read it clear carries bit 31 in its commands (FlashDriver does), which
//    sets it in the model; its release (CMD = 0) is relayed. Semaphore: the read that takes
//    it has no side effect here, so at the first command the server takes the model's
//    semaphore for the tool and shows 1; the tool's release (0) is relayed. Neither detects a
//    second agent racing between the tool's lock read and its first command: tools are
//    serialized per device by a lock file (fwops/access/DeviceLockFile), one tool at a time is exact.
// The device must not be driven by others while start() copies it. The destructor stops the
// thread, relays the last stores, unmaps and unlinks the file.
class BarServer {
 public:
  [[nodiscard]] static Result<std::unique_ptr<BarServer>> start(SimDevice& device, BarServerOptions options);
  [[nodiscard]] static Result<std::unique_ptr<BarServer>> start(SimDevice& device) {
    return start(device, BarServerOptions{});
  }

  BarServer(const BarServer&) = delete;
  BarServer& operator=(const BarServer&) = delete;
  ~BarServer();

  // The file to expose as `resource0` (a symlink to it, or a FUSE readlink).
  [[nodiscard]] const std::filesystem::path& path() const { return file_.path(); }
  [[nodiscard]] std::uint64_t bar_size() const { return file_.size(); }
  [[nodiscard]] std::uint64_t commands_served() const { return commands_served_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t stores_relayed() const { return stores_relayed_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t failed_accesses() const { return failed_accesses_.load(std::memory_order_relaxed); }
  [[nodiscard]] bool serving() const { return thread_.joinable(); }
  // Stops serving (joins the thread, relays pending stores); the file stays until destruction,
  // so a tool still polling it sees BUSY never clear.
  void stop();
  // Shows the model's hw id and watched registers in the file again: the file is otherwise
  // updated only by the server's own commands, so call this after the model changed by
  // another path (power_cycle() or reset() clearing a lock, a config-space gateway, direct
  // SimDevice use). A tool store not yet relayed is kept. Returns once the serving thread has
  // done it (done inline when stopped); not to be called concurrently with stop().
  void resync_from_model();
  // Returns once every store a tool made in the file before the call has reached the model (a
  // save point: the tool's last stores, e.g. its flash-lock release, belong to the saved state).
  // Done inline when stopped; not to be called concurrently with stop().
  void settle();
  // A tool is about to use the BAR (its config space or sysfs folder was opened): polls stop
  // sleeping for BarServerOptions::wake_window. Tools poll BUSY in tight loops (mstflint: a few
  // thousand reads, tens of microseconds on a shared mapping), shorter than an idle sleep.
  void wake();

 private:
  struct Watched {
    std::uint32_t address;
    std::uint32_t shadow;  // what the server last saw or wrote
  };

  BarServer(SimDevice& device, SharedBarFile file, BarServerOptions options);
  [[nodiscard]] Result<void> build_watch_list();
  void fill();
  [[nodiscard]] std::uint32_t model_value(std::uint32_t address) const;
  void mirror_model();
  void serve_resyncs();
  void serve();
  [[nodiscard]] bool awake() const;
  bool serve_once();
  bool relay_plain_stores();
  void relay(std::uint32_t address, std::uint32_t value);
  void run_command(std::uint32_t cmd);
  void take_semaphore_for_tool();
  void publish(std::uint32_t address);
  Watched* find(std::uint32_t address);

  SimDevice* device_;
  SharedBarFile file_;
  BarServerOptions options_;
  FlashGatewayInfo gateway_;
  std::vector<Watched> watched_;  // sorted by address, CMD excluded
  std::uint32_t cmd_shadow_ = 0;
  std::atomic<std::int64_t> awake_until_ns_{0};  // steady_clock; polls do not sleep before it
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> commands_served_{0};
  std::atomic<std::uint64_t> stores_relayed_{0};
  std::atomic<std::uint64_t> failed_accesses_{0};
  std::atomic<std::uint64_t> resyncs_requested_{0};
  std::atomic<std::uint64_t> resyncs_done_{0};
  std::thread thread_;
};

}  // namespace openflint::sim
