// NodeRegisters: per-node register reads (fwops Device + RegisterByName), in-band or through a bus server, in parallel.
#include "core/HexString.h"
#include "fabric/NodeRegisters.h"

#include <charconv>
#include <cstdio>
#include <thread>

#include "devices/CrRegisterMap.h"
#include "fabric/NodeDevice.h"
#include "fwops/access/RemoteListing.h"
#include "fwops/Device.h"

namespace openflint {
namespace {

Result<void> read_access_register(Device& device, const RegisterSelector& s, NodeRegisterValues& out) {
  OF_ASSIGN(RegisterPort * port, device.register_port());
  FieldAssignments indexes = s.indexes;
  for (const auto& f : s.layout->fields)
    if (f.access == FieldAccess::Index) indexes.emplace(std::string(f.name), 0);
  OF_ASSIGN(const auto fields, get_register(*port, *s.layout, indexes));
  for (const auto& fv : fields) {
    if (s.field.empty() || fv.field->name == s.field) out.values.emplace_back(std::string(fv.field->name), fv.value);
  }
  return {};
}

Result<void> read_cr(Device& device, const RegisterSelector& s, NodeRegisterValues& out) {
  std::uint32_t address = 0;
  std::string name;
  if (s.cr_address) {
    address = *s.cr_address;
    name = hex_string(address);
  } else {
    const auto regs = cr_registers(device.info());
    const CrRegister* found = nullptr;
    for (const auto& r : regs)
      if (r.name == s.cr_name) found = &r;
    if (found == nullptr)
      return make_error(ErrorCode::NotFound, "the catalog names no register " + s.cr_name + " on " +
                                                 std::string(device.info().name));
    address = found->address;
    name = found->name;
  }
  OF_ASSIGN(const std::uint32_t word, device.access().read32(address));
  out.values.emplace_back(name, word);
  return {};
}

NodeRegisterValues read_one(const FabricNode& node, const std::shared_ptr<MadChannel>& channel,
                            const RegisterSelector& s, const RemoteDeviceName* remote) {
  NodeRegisterValues out;
  out.node = node;
  if (remote != nullptr) out.path = "out-of-band " + to_string(remote->server);
  auto device = remote != nullptr ? open_host_device(remote->server, remote->device) : open_node_device(node, channel);
  if (!device) {
    out.note = device.error().message();
    return out;
  }
  out.vendor_access = true;
  out.device = std::string(device->info().name);
  auto done = s.layout != nullptr ? read_access_register(*device, s, out) : read_cr(*device, s, out);
  if (!done) {
    out.values.clear();
    out.note = done.error().message();
  }
  return out;
}

}  // namespace

Result<RegisterSelector> RegisterSelector::parse(std::string_view text) {
  RegisterSelector s;
  if (text.starts_with("0x") || text.starts_with("0X")) {
    std::uint32_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), v, 16);
    if (text.size() == 2 || ec != std::errc{} || ptr != text.data() + text.size() || v % 4 != 0)
      return make_error(ErrorCode::InvalidArgument, "bad CR-space address " + std::string(text) + " (a dword-aligned hex address)");
    s.cr_address = v;
    return s;
  }
  if (text.empty()) return make_error(ErrorCode::InvalidArgument, "no register named");
  const auto dot = text.find('.');
  const std::string_view reg = text.substr(0, dot);
  auto layout = find_register_layout(reg);
  if (!layout) {
    if (dot != std::string_view::npos) return make_error(layout.error());  // REG.field of an unknown register
    s.cr_name = std::string(text);
    return s;
  }
  s.layout = *layout;
  if (dot != std::string_view::npos) {
    s.field = std::string(text.substr(dot + 1));
    bool known = false;
    for (const auto& f : s.layout->fields) known = known || f.name == s.field;
    if (!known) return make_error(ErrorCode::InvalidArgument, std::string(s.layout->name) + " has no field " + s.field);
  }
  return s;
}

std::string RegisterSelector::to_string() const {
  if (cr_address) return hex_string(*cr_address);
  if (layout == nullptr) return cr_name;
  return std::string(layout->name) + (field.empty() ? "" : "." + field);
}

std::vector<NodeRegisterValues> read_node_registers(const std::vector<FabricNode>& nodes,
                                                    const std::shared_ptr<MadChannel>& channel,
                                                    const RegisterSelector& selector,
                                                    const std::map<std::uint64_t, RemoteDeviceName>& remote) {
  std::vector<NodeRegisterValues> out(nodes.size());
  std::vector<std::thread> workers;
  workers.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto served = remote.find(nodes[i].guid);
    const RemoteDeviceName* via = served == remote.end() ? nullptr : &served->second;
    workers.emplace_back([&, i, via] { out[i] = read_one(nodes[i], channel, selector, via); });
  }
  for (auto& t : workers) t.join();
  return out;
}

}  // namespace openflint
