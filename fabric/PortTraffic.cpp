// PortTraffic: rates from two reads of PortCountersExtended, and link data rates by width and speed.
#include "fabric/PortTraffic.h"

#include <algorithm>
#include <array>
#include <utility>

#include "fabric/HealthCheck.h"

namespace openflint {
namespace {

// IBA data rate per lane after 8b/10b (SDR..QDR) or 64b/66b (FDR10 and later) coding, in Gb/s.
constexpr std::array<std::pair<std::string_view, double>, 8> kLaneGbps{{
    {"SDR", 2.0},
    {"DDR", 4.0},
    {"QDR", 8.0},
    {"FDR10", 10.0},
    {"FDR", 14.0625 * 64 / 66},
    {"EDR", 25.0},
    {"HDR", 50.0},
    {"NDR", 100.0},
}};

constexpr std::array<std::pair<std::string_view, int>, 5> kLanes{{
    {"1x", 1},
    {"2x", 2},
    {"4x", 4},
    {"8x", 8},
    {"12x", 12},
}};

std::optional<std::uint64_t> traffic_increase(const PortCounterValues& was, const PortCounterValues& now,
                                              const char* name) {
  const auto a = was.find(name);
  const auto b = now.find(name);
  if (a == was.end() || b == now.end()) return std::nullopt;
  return counter_increase(a->second, b->second);
}

}  // namespace

double link_data_bytes_per_s(std::string_view width, std::string_view speed) {
  int lanes = 0;
  for (const auto& [w, n] : kLanes)
    if (w == width) lanes = n;
  double gbps = 0;
  for (const auto& [s, g] : kLaneGbps)
    if (s == speed) gbps = g;
  return lanes * gbps * 1e9 / 8;
}

std::optional<PortTraffic> port_traffic(const PortCounterValues& was, double was_s, const PortCounterValues& now,
                                        double now_s, double link_bytes_per_s) {
  const double seconds = now_s - was_s;
  if (!(seconds > 0)) return std::nullopt;
  const auto xd = traffic_increase(was, now, "PortXmitData");
  const auto rd = traffic_increase(was, now, "PortRcvData");
  const auto xp = traffic_increase(was, now, "PortXmitPkts");
  const auto rp = traffic_increase(was, now, "PortRcvPkts");
  if (!xd || !rd || !xp || !rp) return std::nullopt;
  PortTraffic t;
  t.xmit_bytes_per_s = static_cast<double>(*xd) * 4 / seconds;  // 4-byte units (IBA 16.1.4.11)
  t.rcv_bytes_per_s = static_cast<double>(*rd) * 4 / seconds;
  t.xmit_pkts_per_s = static_cast<double>(*xp) / seconds;
  t.rcv_pkts_per_s = static_cast<double>(*rp) / seconds;
  if (link_bytes_per_s > 0)
    t.utilisation_pct = std::max(t.xmit_bytes_per_s, t.rcv_bytes_per_s) / link_bytes_per_s * 100;
  return t;
}

}  // namespace openflint
