// SystemNaming: reading the name map and topology file, errors as FILE:LINE.
#include "fabric/SystemNaming.h"

#include <cstdio>

#include "fabric/ConfigText.h"

namespace openflint {
namespace {

// The parsers say "line N: why"; a tool's user wants "FILE:N: why".
Error at_file(const std::string& path, const Error& e) {
  std::string_view m = e.message();
  if (m.starts_with("line ")) {
    m.remove_prefix(5);
    const auto colon = m.find(':');
    if (colon != std::string_view::npos)
      return Error(ErrorCode::InvalidArgument, path + ":" + std::string(m.substr(0, colon)) + std::string(m.substr(colon)));
  }
  return Error(ErrorCode::InvalidArgument, path + ": " + std::string(m));
}

}  // namespace

Result<SystemNaming> SystemNaming::load(const SystemNamingFiles& files) {
  SystemNaming naming;
  if (!files.names.empty()) {
    OF_ASSIGN(auto text, read_config_text(files.names, "name map"));
    auto map = SystemNameMap::parse_hosts(text);
    if (!map) return make_error(at_file(files.names, map.error()));
    naming.map_ = std::move(*map);
  }
  if (!files.topology.empty()) {
    OF_ASSIGN(auto text, read_config_text(files.topology, "topology file"));
    auto topo = Topology::parse(text);
    if (!topo) return make_error(at_file(files.topology, topo.error()));
    naming.topology_ = std::move(*topo);
  }
  return naming;
}

std::string SystemNaming::name_or_guid(const FabricNode& node) const {
  std::string name = map_.name_of(node);
  return name.empty() ? guid_text(node.guid) : name;
}

std::string SystemNaming::declared_type(const FabricNode& node) const {
  if (!topology_) return {};
  const auto* sys = topology_->find_system(map_.name_of(node));
  return sys == nullptr ? std::string{} : sys->type;
}

std::string guid_text(std::uint64_t guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
  return buf;
}

}  // namespace openflint
