// FabricLink: one cable found on the fabric (node GUID and port at each end, width, speed, state).
#pragma once

#include <cstdint>
#include <string>

namespace openflint {

struct FabricLink {
  std::uint64_t guid_a = 0;  // the end with the smaller (GUID, port)
  int port_a = 0;
  std::uint64_t guid_b = 0;
  int port_b = 0;
  std::string width;  // active link width, e.g. "4x"
  std::string speed;  // active link speed, e.g. "SDR", "EDR" ("" when the port does not say)
  std::string state;  // logical port state: "Down", "Init", "Armed", "Active"
};

}  // namespace openflint
