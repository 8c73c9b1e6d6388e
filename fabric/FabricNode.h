// FabricNode: one node found on the fabric (type, GUID, LID, description, NodeInfo ids).
#pragma once

#include <cstdint>
#include <string>

namespace openflint {

struct FabricNode {
  enum class Type { Hca, Switch, Router };
  Type type = Type::Hca;
  std::uint64_t guid = 0;
  std::uint16_t lid = 0;  // switch: port 0 (management) LID; HCA: the first port's LID
  std::string description;
  std::uint16_t vendor_id = 0;
  std::uint16_t device_id = 0;  // NodeInfo device id (the PCI device id)
  bool local = false;           // the node this process attached through

  [[nodiscard]] std::string device_name() const { return "lid-" + std::to_string(lid); }
};

[[nodiscard]] constexpr const char* to_string(FabricNode::Type t) {
  return t == FabricNode::Type::Switch ? "switch" : (t == FabricNode::Type::Hca ? "hca" : "router");
}

}  // namespace openflint
