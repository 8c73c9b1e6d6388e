// Mlx5TracerDriver: the simulated host driver's tracer thread (setup, ring consumption, tracepoint lines).
#include "pcisim/Mlx5TracerDriver.h"

#include <array>
#include <chrono>
#include <optional>
#include <vector>

#include "core/HexString.h"
#include "image/TraceEvent.h"
#include "image/TraceParser.h"
#include "image/TraceRecord.h"
#include "image/TraceStringDb.h"
#include "mtcr/registers/McamRegister.h"
#include "mtcr/registers/MtrcCapRegister.h"
#include "mtcr/registers/MtrcConfRegister.h"
#include "mtcr/registers/MtrcCtrlRegister.h"
#include "mtcr/registers/MtrcStdbRegister.h"
#include "sim/FirmwareTracer.h"
#include "sim/SimDevice.h"
#include "sim/SimRegisterPort.h"

namespace openflint::pcisim {

using namespace std::chrono_literals;

namespace {

constexpr auto kPoll = 100ms;
constexpr auto kRetry = 1s;               // after NotOwner, DeviceAbsent or a failed setup
constexpr std::uint32_t kDriverMkey = 0x00d1a500;  // the MKey of "our" buffer: any non-zero value

// A register answered with a non-zero status is a problem named by the register and status.
Result<AccessRegisterTlv> checked(Result<AccessRegisterTlv> answer, const char* what) {
  if (!answer) return make_error(answer.error().with_context(what));
  if (answer->status != 0)
    return make_error(ErrorCode::Io, std::string(what) + ": register status " + hex_string(answer->status));
  return answer;
}

}  // namespace

struct Mlx5TracerDriver::Worker {
  explicit Worker(sim::SimDevice& device) : port(device) {}
  sim::SimRegisterPort port;
  std::optional<TraceParser> parser;
  bool owner = false;
  std::size_t consumer = 0;
  std::uint64_t last_timestamp = 0;
  std::chrono::steady_clock::time_point next_setup{};
};

Mlx5TracerDriver::Mlx5TracerDriver(sim::SimDevice& device, std::string dbdf, TraceFs* tracefs)
    : device_(&device), dbdf_(std::move(dbdf)), tracefs_(tracefs), worker_(std::make_unique<Worker>(device)) {}

std::unique_ptr<Mlx5TracerDriver> Mlx5TracerDriver::start(sim::SimDevice& device, std::string dbdf, TraceFs* tracefs) {
  std::unique_ptr<Mlx5TracerDriver> driver(new Mlx5TracerDriver(device, std::move(dbdf), tracefs));
  driver->thread_ = std::thread([d = driver.get()] { d->run(); });
  return driver;
}

Mlx5TracerDriver::~Mlx5TracerDriver() {
  {
    const std::lock_guard guard(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  // Cleanup: give ownership back (the kernel's mlx5_fw_tracer_cleanup).
  if (worker_->owner) {
    MtrcCapRegister release;
    release.trace_owner = false;
    (void)worker_->port.write(MtrcCapRegister::kId, release.encode());
  }
}

std::string Mlx5TracerDriver::last_problem() const {
  const std::lock_guard guard(mutex_);
  return problem_;
}

void Mlx5TracerDriver::set_problem(std::string problem) {
  const std::lock_guard guard(mutex_);
  problem_ = std::move(problem);
}

void Mlx5TracerDriver::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    poll();
    lock.lock();
    wake_.wait_for(lock, kPoll, [this] { return stopping_; });
  }
}

void Mlx5TracerDriver::poll_now() { poll(); }

namespace {

// The whole string DB as MTRC_CAP describes it, read chunk by chunk through MTRC_STDB.
Result<TraceStringDb> read_string_db(RegisterPort& port, const MtrcCapRegister& cap) {
  std::vector<TraceStringSection> sections;
  for (const MtrcStringDbParam& p : cap.string_dbs()) sections.push_back({.base_address = p.base_address, .size = p.size});
  OF_ASSIGN(TraceStringDb db, TraceStringDb::create(sections));
  for (std::size_t i = 0; i < sections.size(); ++i) {
    for (const TraceStringChunk& chunk : trace_string_read_plan(sections[i].size)) {
      const MtrcStdbRegister ask = MtrcStdbRegister::request(static_cast<std::uint8_t>(i), chunk.offset, chunk.size);
      OF_ASSIGN(const AccessRegisterTlv answer, checked(port.query(MtrcStdbRegister::kId, ask.encode()), "MTRC_STDB"));
      OF_ASSIGN(const MtrcStdbRegister got, MtrcStdbRegister::decode(answer.data));
      OF_TRY(db.store(i, chunk.offset, got.data));
    }
  }
  return db;
}

}  // namespace

void Mlx5TracerDriver::poll() {
  const std::lock_guard one_poll(poll_mutex_);
  Worker& w = *worker_;
  const auto now = std::chrono::steady_clock::now();
  if (!w.parser) {  // set up (again)
    if (now < w.next_setup) return;
    w.next_setup = now + kRetry;
    w.owner = false;
    McamRegister mcam;
    auto mcam_answer = w.port.query(McamRegister::kId, mcam.encode());
    if (!mcam_answer) {
      state_ = TracerDriverState::DeviceAbsent;
      return set_problem(mcam_answer.error().message());
    }
    auto listed = McamRegister::decode(mcam_answer->data);
    if (mcam_answer->status != 0 || !listed || listed->tracer_registers() == 0) {
      state_ = TracerDriverState::NoTracer;
      return;
    }
    auto cap_answer = checked(w.port.query(MtrcCapRegister::kId, std::vector<std::uint8_t>(MtrcCapRegister::kSize, 0)), "MTRC_CAP");
    if (!cap_answer) return set_problem(cap_answer.error().message());
    auto cap = MtrcCapRegister::decode(cap_answer->data);
    if (!cap) return set_problem(cap.error().message());
    if (!cap->trace_to_memory) {  // the kernel: -ENOTSUPP
      state_ = TracerDriverState::NoTracer;
      return;
    }
    auto db = read_string_db(w.port, *cap);
    if (!db) return set_problem("reading the string DB: " + db.error().message());
    MtrcCapRegister take;
    take.trace_owner = true;
    auto granted = checked(w.port.write(MtrcCapRegister::kId, take.encode()), "MTRC_CAP");
    if (!granted) return set_problem(granted.error().message());
    auto reply = MtrcCapRegister::decode(granted->data);
    if (!reply || !reply->trace_owner) {
      state_ = TracerDriverState::NotOwner;
      return;
    }
    w.owner = true;
    MtrcConfRegister conf;
    conf.trace_mode = MtrcConfRegister::kModeMemory;
    conf.log_trace_buffer_size = MtrcConfRegister::kLinuxLogBufferSize;
    conf.trace_mkey = kDriverMkey;
    if (auto set = checked(w.port.write(MtrcConfRegister::kId, conf.encode()), "MTRC_CONF"); !set)
      return set_problem(set.error().message());
    const auto active = MtrcCtrlRegister::set_status(MtrcCtrlRegister::kStatusActive, true);
    if (auto set = checked(w.port.write(MtrcCtrlRegister::kId, active.encode()), "MTRC_CTRL"); !set)
      return set_problem(set.error().message());
    TraceParserConfig config;
    config.trc_ver = cap->trc_ver;
    config.ids = TraceEventIds{.first_string_trace = cap->first_string_trace, .num_string_trace = cap->num_string_trace};
    w.parser.emplace(std::move(*db), config);
    w.consumer = 0;
    w.last_timestamp = 0;
    state_ = TracerDriverState::Tracing;
    set_problem("");
  }
  // Still tracing? A reloaded firmware comes back with its tracer disabled and unowned.
  auto ctrl_answer = w.port.query(MtrcCtrlRegister::kId, std::vector<std::uint8_t>(MtrcCtrlRegister::kSize, 0));
  auto ctrl = ctrl_answer && ctrl_answer->status == 0 ? MtrcCtrlRegister::decode(ctrl_answer->data)
                                                     : Result<MtrcCtrlRegister>(make_error(ErrorCode::Io, "MTRC_CTRL"));
  if (!ctrl || ctrl->trace_status != MtrcCtrlRegister::kStatusActive) {
    w.parser.reset();
    w.owner = false;
    w.next_setup = now;
    state_ = ctrl_answer ? TracerDriverState::Starting : TracerDriverState::DeviceAbsent;
    return;
  }
  bool consumed = false;
  std::array<std::uint8_t, sim::kTraceBlockBytes> block{};
  for (std::size_t n = 0; n < sim::kTraceBlocks; ++n) {
    if (!device_->read_trace_block(w.consumer, block)) break;
    const std::uint64_t last = load_trace_word(std::span<const std::uint8_t, 8>(block.data() + block.size() - 8, 8));
    if (trace_event_id(last) != TimestampTraceEvent::kEventId) break;
    const std::uint64_t ts = TimestampTraceEvent::decode(last).timestamp;
    if (ts <= w.last_timestamp) break;
    w.last_timestamp = ts;
    w.consumer = (w.consumer + 1) % sim::kTraceBlocks;
    consumed = true;
    auto records = w.parser->feed_bytes(block);
    if (!records) continue;
    for (const TraceRecord& r : *records) {
      ++messages_;
      if (tracefs_ == nullptr) continue;
      if (auto written = tracefs_->emit_mlx5_fw(tracepoint_text(dbdf_, r)); !written) set_problem(written.error().message());
    }
  }
  if (consumed) (void)w.port.write(MtrcCtrlRegister::kId, MtrcCtrlRegister::arm().encode());  // re-arm
}

}  // namespace openflint::pcisim
