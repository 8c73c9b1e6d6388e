// Mlx5TracerDriver: what the Linux mlx5_core driver's firmware tracer does, for a simulated device bound to a simulated mlx5_core.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "pcisim/TraceFs.h"

namespace openflint::sim {
class SimDevice;
}

namespace openflint::pcisim {

// What the driver's tracer is doing now (for status output and tests).
enum class TracerDriverState : std::uint8_t {
  Starting,      // not set up yet (or set up again after the firmware reloaded)
  NoTracer,      // MCAM lists no tracer registers, or MTRC_CAP has no host-memory mode: nothing to do
  NotOwner,      // another function or tool owns the tracer; asked again every second
  Tracing,       // owner, strings read, consuming the ring
  DeviceAbsent,  // the firmware does not answer (powered off, hung, recovery); tried again later
};

// The driver's tracer, as fw-trace-and-fwctl.md A2/A3 describes Linux's (diag/fw_tracer.c):
// checks MCAM's tracer_registers, reads MTRC_CAP (host-memory mode required), reads every
// string-DB section through MTRC_STDB by trace_string_read_plan, takes ownership (MTRC_CAP
// trace_owner = 1, the reply says whether it was granted), configures memory mode (MTRC_CONF:
// mode 1, log_trace_buffer_size 6) and starts the tracer (MTRC_CTRL: active, arm). Then, every
// poll (100 ms; the kernel waits for the "traces available" event instead), it consumes the ring
// block by block from its consumer index — a block is new when its last word's timestamp is
// greater than the last one handled — with image/TraceParser, and emits each message as an
// mlx5_fw tracepoint line into the TraceFs (tracepoint_text: "<dbdf> [0x<ts>] <lost> [0x<id>]
// <message>"), then re-arms. The ring is the device's memory seen by simulated DMA
// (SimDevice::read_trace_block). When the tracer reads disabled (the firmware reloaded: a reset
// or power cycle clears its tracer), it starts over: strings read again (the new firmware's),
// ownership taken again, consumer index and last timestamp back to 0.
// Stopping (the destructor: unbind, server stop) releases ownership when it holds it.
class Mlx5TracerDriver {
 public:
  // Starts the driver's thread. `device` and `tracefs` (may be null: the driver traces, no lines
  // are written, as on a host without tracefs mounted) must outlive this object.
  [[nodiscard]] static std::unique_ptr<Mlx5TracerDriver> start(sim::SimDevice& device, std::string dbdf, TraceFs* tracefs);
  Mlx5TracerDriver(const Mlx5TracerDriver&) = delete;
  Mlx5TracerDriver& operator=(const Mlx5TracerDriver&) = delete;
  ~Mlx5TracerDriver();

  [[nodiscard]] TracerDriverState state() const { return state_.load(); }
  [[nodiscard]] std::uint64_t messages() const { return messages_.load(); }
  // The last problem met (a refused register, a bad string DB), empty when none.
  [[nodiscard]] std::string last_problem() const;
  // Runs one poll now (tests: no waiting for the next 100 ms).
  void poll_now();

  struct Worker;  // the thread's state (Mlx5TracerDriver.cpp)

 private:
  Mlx5TracerDriver(sim::SimDevice& device, std::string dbdf, TraceFs* tracefs);
  void run();
  void poll();
  void set_problem(std::string problem);

  sim::SimDevice* device_;
  std::string dbdf_;
  TraceFs* tracefs_;
  std::unique_ptr<Worker> worker_;
  std::atomic<TracerDriverState> state_{TracerDriverState::Starting};
  std::atomic<std::uint64_t> messages_{0};
  mutable std::mutex mutex_;  // problem_, and one poll at a time
  std::mutex poll_mutex_;
  std::condition_variable wake_;
  std::string problem_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace openflint::pcisim
