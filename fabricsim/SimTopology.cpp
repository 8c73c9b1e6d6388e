// SimTopology: parse an ibsim topology, cable it, number its LIDs.
#include "fabricsim/SimTopology.h"

#include <cstdlib>
#include <sstream>

namespace openflint {

namespace {

constexpr std::uint64_t kGuidBase = 0x0002c90300a00000ULL;  // nodes without a given GUID, 0x100 apart

struct PendingLink {
  std::size_t node;
  unsigned port;
  std::string remote;
  unsigned remote_port;
  int line;
};

std::string quoted(const std::string& line, std::size_t from, std::size_t* end) {
  const auto a = line.find('"', from);
  const auto b = a == std::string::npos ? a : line.find('"', a + 1);
  if (b == std::string::npos) return "";
  *end = b + 1;
  return line.substr(a + 1, b - a - 1);
}

bool number_in_brackets(const std::string& line, std::size_t from, unsigned* out, std::size_t* end) {
  const auto a = line.find('[', from);
  if (a == std::string::npos) return false;
  char* stop = nullptr;
  const unsigned long v = std::strtoul(line.c_str() + a + 1, &stop, 10);
  if (stop == line.c_str() + a + 1 || *stop != ']' || v > 255) return false;
  *out = static_cast<unsigned>(v);
  *end = static_cast<std::size_t>(stop - line.c_str()) + 1;
  return true;
}

}  // namespace

std::uint16_t SimTopologyNode::lid(unsigned port) const {
  if (is_switch) return lids.empty() ? 0 : lids[0];
  return port < lids.size() ? lids[port] : 0;
}

Result<SimTopology> SimTopology::parse(const std::string& text, const std::string& first) {
  SimTopology t;
  std::istringstream in(text);
  std::string line;
  std::uint16_t vendor = 0x02c9;
  std::uint16_t device = 0;
  std::uint64_t guid = 0;
  std::vector<PendingLink> links;
  int number = 0;
  const auto bad = [&number](const std::string& why) {
    return make_error(ErrorCode::InvalidArgument, "topology line " + std::to_string(number) + ": " + why);
  };
  while (std::getline(in, line)) {
    ++number;
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    line = line.substr(start);
    const auto value = [&line]() { return std::strtoull(line.c_str() + line.find('=') + 1, nullptr, 0); };
    if (line.starts_with("vendid=")) {
      vendor = static_cast<std::uint16_t>(value());
    } else if (line.starts_with("devid=")) {
      device = static_cast<std::uint16_t>(value());
    } else if (line.starts_with("switchguid=") || line.starts_with("caguid=") || line.starts_with("sysimgguid=")) {
      if (!line.starts_with("sysimgguid=")) guid = value();
    } else if (line.starts_with("Switch") || line.starts_with("Hca") || line.starts_with("Ca")) {
      SimTopologyNode n;
      n.is_switch = line.starts_with("Switch");
      const auto digits = line.find_first_of("0123456789");
      std::size_t end = 0;
      n.name = quoted(line, 0, &end);
      if (digits == std::string::npos || n.name.empty()) return bad("expected Switch|Hca N \"name\"");
      n.ports = static_cast<unsigned>(std::strtoul(line.c_str() + digits, nullptr, 10));
      if (n.ports == 0 || n.ports > 254) return bad("a node has 1 to 254 ports");
      if (t.index_.count(n.name) != 0) return bad("node \"" + n.name + "\" is declared twice");
      n.vendor_id = vendor;
      n.device_id = device;
      n.guid = guid;
      n.peers.resize(n.ports + 1);
      n.lids.resize(n.ports + 1, 0);
      t.index_[n.name] = t.nodes_.size();
      t.nodes_.push_back(std::move(n));
      vendor = 0x02c9;  // as ibsim: the vendor resets per node, the device id carries over
      guid = 0;
    } else if (line.starts_with("[")) {
      if (t.nodes_.empty()) return bad("a port line before any node");
      PendingLink l{t.nodes_.size() - 1, 0, "", 0, number};
      std::size_t end = 0;
      if (!number_in_brackets(line, 0, &l.port, &end)) return bad("expected [PORT] \"remote\"[PORT]");
      l.remote = quoted(line, end, &end);
      if (l.remote.empty() || !number_in_brackets(line, end, &l.remote_port, &end))
        return bad("expected [PORT] \"remote\"[PORT]");
      links.push_back(std::move(l));
    } else {
      return bad("not understood: " + line);
    }
  }
  if (t.nodes_.empty()) return make_error(ErrorCode::InvalidArgument, "topology: no nodes");
  for (const auto& l : links) {
    const std::size_t r = t.find(l.remote);
    auto& a = t.nodes_[l.node];
    if (r == SimTopologyNode::kNone)
      return make_error(ErrorCode::InvalidArgument, "topology line " + std::to_string(l.line) + ": no node \"" + l.remote + "\"");
    auto& b = t.nodes_[r];
    if (l.port == 0 || l.port > a.ports || l.remote_port == 0 || l.remote_port > b.ports)
      return make_error(ErrorCode::InvalidArgument, "topology line " + std::to_string(l.line) + ": no such port");
    a.peers[l.port] = {r, l.remote_port};
    b.peers[l.remote_port] = {l.node, l.port};
  }
  OF_TRY(t.link_and_number(first));
  return t;
}

Result<void> SimTopology::link_and_number(const std::string& first) {
  std::vector<std::size_t> order;
  const std::size_t head = first.empty() ? SimTopologyNode::kNone : find(first);
  if (!first.empty() && head == SimTopologyNode::kNone)
    return make_error(ErrorCode::NotFound, "topology has no node \"" + first + "\"");
  if (head != SimTopologyNode::kNone) order.push_back(head);
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (i != head) order.push_back(i);
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    auto& n = nodes_[k];
    if (n.guid == 0) n.guid = kGuidBase + 0x100 * (k + 1);
  }
  for (std::size_t i : order) {
    auto& n = nodes_[i];
    const unsigned first_port = n.is_switch ? 0 : 1;
    const unsigned last_port = n.is_switch ? 0 : n.ports;
    for (unsigned p = first_port; p <= last_port; ++p) {
      if (lid_owner_.size() >= 0xbfff) return make_error(ErrorCode::InvalidArgument, "topology: more ports than unicast LIDs");
      n.lids[p] = static_cast<std::uint16_t>(lid_owner_.size());
      lid_owner_.push_back({i, p});
    }
  }
  return {};
}

std::size_t SimTopology::find(const std::string& name) const {
  const auto it = index_.find(name);
  return it == index_.end() ? SimTopologyNode::kNone : it->second;
}

SimTopologyNode::Peer SimTopology::by_lid(std::uint16_t lid) const {
  return lid < lid_owner_.size() ? lid_owner_[lid] : SimTopologyNode::Peer{};
}

}  // namespace openflint
