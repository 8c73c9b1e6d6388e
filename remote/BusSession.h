// BusSession: serves one bus-protocol connection (mstmtserver 1.4) against this host's devices.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "fwops/Device.h"
#include "mtcr/remote/BusProtocol.h"
#include "remote/BusChannel.h"

namespace openflint {

// One line per connection open/close and per O; the first W, U and register write (G, method
// write) of a session (address and size, never the data); the totals at close.
using AuditLog = std::function<void(std::string_view)>;

struct BusSessionOptions {
  static constexpr std::chrono::milliseconds kDefaultIdleTimeout{300000};

  // What L lists and the only names O may open.
  std::vector<std::string> devices;
  // Only what answers a query: R, B, G queries, and the W a flash read sends through the
  // device's gateway (remote/ReadOnlyWrites.h); U, G writes and every other W are refused with
  // "E read-only server" (the reason goes to the audit log, once per session).
  bool read_only = false;
  // X (docs/remote.md): the safe reset of `mst reset` (fwops/registers/AdapterReset.h) on request;
  // off: "E reset not allowed by this server". allow_unbind lets the reset unbind the drivers
  // bound to the device and bind them again (`mst reset --unbind`); without it a bound driver
  // refuses the reset. Each reset request and its outcome is one audit line.
  bool allow_reset = false;
  bool allow_unbind = false;
  // The session ends when no request arrives for this long.
  std::chrono::milliseconds idle_timeout = kDefaultIdleTimeout;
  // Who is on the other end, for the audit lines ("127.0.0.1:40000", "stdio").
  std::string peer;
  AuditLog audit;
  // How devices are opened; lock_timeout 0 so a held device answers "busy" at once.
  DeviceOpenOptions open_options = without_waiting();

  [[nodiscard]] static DeviceOpenOptions without_waiting() {
    DeviceOpenOptions options;
    options.lock_timeout = std::chrono::milliseconds{0};
    return options;
  }
};

// Holds at most one opened Device (and its lock); it is released on C and when the session
// object goes away, however run() ended.
class BusSession {
 public:
  BusSession(BusChannel& channel, BusSessionOptions options);
  ~BusSession();
  BusSession(const BusSession&) = delete;
  BusSession& operator=(const BusSession&) = delete;

  // Answers requests until EOF, the idle timeout or a failed send (the returned error says
  // which: Io at EOF or send failure, Timeout when idle). Requests that do not parse get
  // "E <reason>" and the session goes on.
  [[nodiscard]] Result<void> run();

  // The replies to one request text (L answers with several messages). Public for tests.
  [[nodiscard]] std::vector<std::string> answer(std::string_view request_text);

 private:
  [[nodiscard]] std::vector<std::string> answer_request(const BusRequest& request);
  [[nodiscard]] std::string open(const BusRequest& request);
  [[nodiscard]] std::string read_block(const BusRequest& request);
  [[nodiscard]] std::string write_block(const BusRequest& request);
  // G: the probe (the register bytes the channel carries) or one access through the device's
  // register port; the register status goes back in the reply.
  [[nodiscard]] std::string access_register(const BusRequest& request);
  // X: the plan (what a reset would do, or why not) or the reset of the open device.
  [[nodiscard]] std::string reset(const BusRequest& request);
  void audit(std::string_view line) const;
  // The "E read-only server" reply; the first of a session is audited with `why`.
  [[nodiscard]] std::string refuse_read_only(std::string_view why);
  // Releases the open device (and its lock); a simulated device that was written is saved
  // first (Device::commit), so what a client wrote survives the session like a real flash.
  void close_device(std::string_view why);

  BusChannel& channel_;
  BusSessionOptions options_;
  std::optional<Device> device_;
  // Whether the flash lock was free when device_ was opened (remote/SessionFlashLock.h).
  bool flash_lock_free_at_open_ = false;
  // Writes to the open device. The audit log names the first W and the first U of a session and
  // the totals at close: a burn is hundreds of thousands of writes, one line each would bury it.
  std::uint64_t dword_writes_ = 0;
  std::uint64_t block_writes_ = 0;
  std::uint64_t bytes_written_ = 0;
  std::uint64_t register_writes_ = 0;  // G with method write; the first is audited
  std::uint64_t read_only_refusals_ = 0;  // the first is audited
  // Requests answered and how many batches they came in (a pipelining client sends several per
  // round trip); both in the closing audit line.
  std::uint64_t requests_ = 0;
  std::uint64_t batches_ = 0;
  // At most this many buffered requests are answered before their replies go out.
  static constexpr std::size_t kMaxRequestsPerBatch = 64;
};

}  // namespace openflint
