// PortCounters: a port's error and link-recovery counters (PortCounters) and traffic counters (PortCountersExtended) over PerfMgt (class 0x04).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"

struct ibmad_port;

namespace openflint {

struct IbDiagFunctions;

// Counter name (IBA 16.1.3.5, the names perfquery and ibsim's PerformanceSet use) → value.
using PortCounterValues = std::map<std::string, std::uint64_t>;

// The error counters a health pass reads, in PortCounters order: SymbolErrorCounter,
// LinkErrorRecoveryCounter, LinkDownedCounter, PortRcvErrors, ..., VL15Dropped.
[[nodiscard]] const std::vector<std::string_view>& port_error_counter_names();

// The traffic counters a health pass reads from PortCountersExtended (IBA 16.1.4.11), 64 bits
// each: PortXmitData, PortRcvData (in units of 4 bytes, as IBA counts them), PortXmitPkts,
// PortRcvPkts.
[[nodiscard]] const std::vector<std::string_view>& port_traffic_counter_names();

// Those four counters decoded from a PortCountersExtended attribute (`data`: the attribute as the
// MAD carries it, from its first byte; big-endian 64-bit fields at bytes 8, 16, 24 and 32).
// InvalidArgument when `data` is shorter than 40 bytes.
[[nodiscard]] Result<PortCounterValues> decode_port_traffic_counters(std::span<const std::uint8_t> data);

// A PerfMgt client on a local port (its own umad port); one query at a time.
class PerfMgtPort {
 public:
  // `ca` empty / `port` 0: the first CA and its first active port. Io when the port cannot be opened.
  [[nodiscard]] static Result<PerfMgtPort> open(const std::string& ca = "", int port = 0);
  PerfMgtPort(PerfMgtPort&& other) noexcept : diag_(other.diag_), port_(other.port_) { other.port_ = nullptr; }
  PerfMgtPort& operator=(PerfMgtPort&& other) noexcept;
  PerfMgtPort(const PerfMgtPort&) = delete;
  PerfMgtPort& operator=(const PerfMgtPort&) = delete;
  ~PerfMgtPort();

  // PortCounters of port `port_number` of the node at `lid` (a switch: its port 0 LID).
  // Timeout when the node's agent does not answer.
  [[nodiscard]] Result<PortCounterValues> query(std::uint16_t lid, int port_number);
  // PortCountersExtended of the same port: the traffic counters (port_traffic_counter_names).
  // Timeout when the agent does not answer (an agent without extended counters does not).
  [[nodiscard]] Result<PortCounterValues> query_traffic(std::uint16_t lid, int port_number);

 private:
  PerfMgtPort(const IbDiagFunctions* diag, ibmad_port* port) : diag_(diag), port_(port) {}
  const IbDiagFunctions* diag_ = nullptr;  // libibmad, loaded on the first open (IbDiagLibrary)
  ibmad_port* port_ = nullptr;
};

}  // namespace openflint
