// SimTopology: an ibsim topology text as nodes, ports, links, GUIDs and LIDs (for the in-process fabric).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/Result.h"

namespace openflint {

struct SimTopologyNode {
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  struct Peer {
    std::size_t node = kNone;  // kNone: the port is not cabled
    unsigned port = 0;
  };
  std::string name;
  bool is_switch = false;
  unsigned ports = 1;
  std::uint16_t vendor_id = 0x02c9;
  std::uint16_t device_id = 0;
  std::uint64_t guid = 0;       // node GUID; switch port GUID = it, CA port P GUID = it + P
  std::vector<Peer> peers;      // by port number (index 0: switch port 0 / unused on a CA)
  std::vector<std::uint16_t> lids;  // by port: switch port 0; CA ports (0: none)
  [[nodiscard]] std::uint16_t lid(unsigned port) const;  // a switch: port 0's for every port
  [[nodiscard]] std::uint64_t port_guid(unsigned port) const { return is_switch ? guid : guid + port; }
};

// The ibsim file (docs: inband-ibsim.md): "vendid=" / "devid=" / "switchguid=" / "caguid="
// lines before "Switch N \"name\"" or "Hca N \"name\"", then "[P] \"remote\"[RP]" lines. A link
// needs both ends to name each other only once: one side is enough. LIDs: `first` (the node
// clients attach through) gets LID 1, the others follow in file order; a switch has one LID
// (port 0), a CA one per port. Node GUIDs not given get distinct ones from a fixed base.
class SimTopology {
 public:
  [[nodiscard]] static Result<SimTopology> parse(const std::string& text, const std::string& first = "");

  [[nodiscard]] const std::vector<SimTopologyNode>& nodes() const { return nodes_; }
  [[nodiscard]] std::vector<SimTopologyNode>& nodes() { return nodes_; }
  [[nodiscard]] std::size_t find(const std::string& name) const;  // kNone when absent
  // The node and port a LID names (node kNone when none).
  [[nodiscard]] SimTopologyNode::Peer by_lid(std::uint16_t lid) const;
  [[nodiscard]] std::uint16_t max_lid() const { return static_cast<std::uint16_t>(lid_owner_.size() - 1); }

 private:
  [[nodiscard]] Result<void> link_and_number(const std::string& first);

  std::vector<SimTopologyNode> nodes_;
  std::map<std::string, std::size_t> index_;
  std::vector<SimTopologyNode::Peer> lid_owner_{SimTopologyNode::Peer{}};  // [0]: no node
};

}  // namespace openflint
