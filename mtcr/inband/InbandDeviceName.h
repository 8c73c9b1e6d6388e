// InbandDeviceName: a parsed in-band device name (lid-N[,ca[,port]], iblid-N, ibdr-a.b.c).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"

namespace openflint {

struct InbandDeviceName {
  enum class Route {
    VendorGmp,    // lid-N: vendor GMP class 0x0A to LID N
    SmpLid,       // iblid-N: LID-routed SMP attribute 0xff50
    SmpDirected,  // ibdr-a.b.c: directed-route SMP along the port path
  };
  Route route = Route::VendorGmp;
  std::uint16_t lid = 0;            // VendorGmp and SmpLid
  std::vector<std::uint8_t> path;   // SmpDirected: path[0] is the local entry (0), then exit ports
  std::string ca;                   // local CA name; empty = the first one
  int port = 0;                     // local port number; 0 = the first active one

  [[nodiscard]] std::size_t hop_count() const { return path.empty() ? 0 : path.size() - 1; }
  [[nodiscard]] std::string to_string() const;
};

// Parses "lid-3", "lid-0x3,mlx5_0,1", "iblid-3", "ibdr-0.1.2" (an optional ",ca[,port]" suffix
// is accepted on every form). Errors are InvalidArgument and name the offending part.
[[nodiscard]] Result<InbandDeviceName> parse_inband_device_name(std::string_view name);

// Whether a name looks like an in-band device (so callers can pick this transport).
[[nodiscard]] bool is_inband_device_name(std::string_view name);

}  // namespace openflint
