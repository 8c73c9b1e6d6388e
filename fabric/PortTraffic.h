// PortTraffic: a port's traffic rates between two health passes (PortCountersExtended deltas) and its utilisation of the link.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "fabric/PortCounters.h"

namespace openflint {

// The data rate a link carries, in bytes per second, from its active width ("4x") and speed
// ("EDR") as FabricDiscovery spells them: lanes times the lane's data rate after line coding
// (SDR 2, DDR 4, QDR 8, FDR10 10, FDR 13.64, EDR 25, HDR 50, NDR 100 Gb/s). 0 when either is unknown.
[[nodiscard]] double link_data_bytes_per_s(std::string_view width, std::string_view speed);

// One port's rates between two reads of its traffic counters.
struct PortTraffic {
  double xmit_bytes_per_s = 0;
  double rcv_bytes_per_s = 0;
  double xmit_pkts_per_s = 0;
  double rcv_pkts_per_s = 0;
  // The busier direction's bytes/s over the link's data rate, in percent; nullopt when the link's
  // rate is unknown.
  std::optional<double> utilisation_pct;
};

// The rates from counters `was` (read at `was_s` seconds) to `now` (at `now_s`), on a link of
// `link_bytes_per_s` (0: unknown). PortXmitData/PortRcvData count 4-byte units; a counter that
// went down was cleared, so its new value is the increase (counter_increase). nullopt when the
// interval is not positive or a traffic counter is missing from either read.
[[nodiscard]] std::optional<PortTraffic> port_traffic(const PortCounterValues& was, double was_s,
                                                      const PortCounterValues& now, double now_s,
                                                      double link_bytes_per_s);

}  // namespace openflint
