// FatTree: generating the two-level fat tree.
#include "fabric/FatTree.h"

#include "fabric/SystemType.h"

namespace openflint {
namespace {

Result<std::string> numbered(const std::string& pattern, int n) {
  const auto at = pattern.find("%d");
  if (at == std::string::npos || pattern.find("%d", at + 2) != std::string::npos || pattern.find(' ') != std::string::npos)
    return make_error(ErrorCode::InvalidArgument, "name pattern '" + pattern + "' needs exactly one %d and no spaces");
  return pattern.substr(0, at) + std::to_string(n) + pattern.substr(at + 2);
}

Result<int> port_count(const std::string& type, DeviceKind kind, int given) {
  auto found = find_system_type(type);
  if (!found) return make_error(ErrorCode::InvalidArgument, found.error().message());  // a bad option value
  const DeviceInfo* info = *found;
  if (info->kind != kind)
    return make_error(ErrorCode::InvalidArgument, type + " is a " + std::string(to_string(info->kind)) + ", not a " +
                                                      std::string(to_string(kind)));
  return given > 0 ? given : info->port_count;
}

}  // namespace

Result<Topology> make_fat_tree(const FatTreeSpec& s) {
  if (s.spines < 1 || s.leaves < 1 || s.hosts_per_leaf < 0)
    return make_error(ErrorCode::InvalidArgument, "a fat tree needs at least one spine and one leaf");
  OF_ASSIGN(const int leaf_ports, port_count(s.switch_type, DeviceKind::Switch, s.leaf_ports));
  OF_ASSIGN(const int spine_ports, port_count(s.switch_type, DeviceKind::Switch, s.spine_ports));
  OF_TRY(port_count(s.host_type, DeviceKind::Hca, 1));
  if (s.hosts_per_leaf + s.spines > leaf_ports)
    return make_error(ErrorCode::InvalidArgument, std::to_string(s.hosts_per_leaf) + " hosts and " +
                                                      std::to_string(s.spines) + " uplinks do not fit " +
                                                      std::to_string(leaf_ports) + " leaf ports");
  if (s.leaves > spine_ports)
    return make_error(ErrorCode::InvalidArgument, std::to_string(s.leaves) + " leaves do not fit " +
                                                      std::to_string(spine_ports) + " spine ports");
  Topology t;
  for (int i = 1; i <= s.spines; ++i) {
    OF_ASSIGN(auto name, numbered(s.spine_name, i));
    OF_TRY(t.add_system(s.switch_type, name));
  }
  for (int i = 1; i <= s.leaves; ++i) {
    OF_ASSIGN(auto name, numbered(s.leaf_name, i));
    OF_TRY(t.add_system(s.switch_type, name));
  }
  for (int i = 1; i <= s.leaves * s.hosts_per_leaf; ++i) {
    OF_ASSIGN(auto name, numbered(s.host_name, i));
    OF_TRY(t.add_system(s.host_type, name));
  }
  if (static_cast<int>(t.systems().size()) != s.spines + s.leaves + s.leaves * s.hosts_per_leaf)
    return make_error(ErrorCode::InvalidArgument, "the name patterns give two systems the same name");
  for (int l = 1; l <= s.leaves; ++l) {
    OF_ASSIGN(auto leaf, numbered(s.leaf_name, l));
    for (int h = 1; h <= s.hosts_per_leaf; ++h) {
      OF_ASSIGN(auto host, numbered(s.host_name, (l - 1) * s.hosts_per_leaf + h));
      OF_TRY(t.add_cable({leaf, h}, {host, 1}));
    }
    for (int sp = 1; sp <= s.spines; ++sp) {
      OF_ASSIGN(auto spine, numbered(s.spine_name, sp));
      OF_TRY(t.add_cable({leaf, s.hosts_per_leaf + sp}, {spine, l}));
    }
  }
  return t;
}

}  // namespace openflint
