// ibcon: one register (access register by name, named or raw CR-space dword) read on a set of fabric nodes in parallel (out-of-band through --hosts first, else in-band).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/HexString.h"
#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "cli/ParseCommandLine.h"
#include "cli/ToolBoundary.h"
#include "cli/Version.h"
#include "fabric/OpenedFabric.h"
#include "fabric/NodeRegisters.h"
#include "fabric/OutOfBandNodes.h"
#include "fabric/SystemNaming.h"
#include "fabric/options/SystemNameOptions.h"

namespace {

using namespace openflint;
using nlohmann::json;

struct Args {
  std::string reg;
  std::vector<std::string> guids;
  std::vector<std::string> names;
  std::string index;
  SystemNamingFiles files;
  std::string hosts_file;
  std::string ca;
  std::string ca_old;  // -i CA: the old spelling of -C,--ca
  int port = 0;
  bool json = false;
};

Result<std::uint64_t> parse_guid(std::string_view text) {
  if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 16);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size())
    return make_error(ErrorCode::InvalidArgument, "bad GUID " + std::string(text));
  return v;
}

struct Row {
  std::string system;
  NodeRegisterValues r;
};

void print_table(const std::vector<Row>& rows, const RegisterSelector& sel) {
  std::size_t w = 6;
  for (const auto& row : rows) w = std::max(w, row.system.size());
  const bool paths = std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.r.path != "in-band"; });
  std::printf("%-*s  %-18s  %-5s  %-12s  %s%s\n", static_cast<int>(w), "SYSTEM", "GUID", "LID", "DEVICE",
              paths ? "PATH  " : "", sel.to_string().c_str());
  for (const auto& row : rows) {
    std::string values;
    for (const auto& [name, v] : row.r.values) values += (values.empty() ? "" : " ") + name + "=" + hex_string(v);
    if (row.r.values.empty()) values = "-- " + row.r.note;
    std::printf("%-*s  %-18s  %-5u  %-12s  %s%s\n", static_cast<int>(w), row.system.c_str(),
                guid_text(row.r.node.guid).c_str(), row.r.node.lid, row.r.device.empty() ? "-" : row.r.device.c_str(),
                paths ? (row.r.path + "  ").c_str() : "", values.c_str());
  }
}

json rows_json(const std::vector<Row>& rows, const RegisterSelector& sel) {
  json nodes = json::array();
  for (const auto& row : rows) {
    json values = json::object();
    for (const auto& [name, v] : row.r.values) values[name] = hex_string(v);
    nodes.push_back({{"system", row.system}, {"guid", guid_text(row.r.node.guid)}, {"lid", row.r.node.lid},
                     {"type", to_string(row.r.node.type)}, {"vendor_access", row.r.vendor_access}, {"path", row.r.path},
                     {"device", row.r.device.empty() ? json(nullptr) : json(row.r.device)},
                     {"read", !row.r.values.empty()}, {"values", values},
                     {"note", row.r.note.empty() ? json(nullptr) : json(row.r.note)}});
  }
  return json{{"ok", true}, {"register", sel.to_string()}, {"nodes", nodes}};
}

int run(Args a) {
  const auto fail = [&](const Error& e) { return openflint::cli::report_error(e, a.json); };
  if (!a.ca_old.empty()) {
    std::cerr << "-W- -i CA is deprecated: the local CA is -C,--ca\n";
    if (a.ca.empty()) a.ca = a.ca_old;
  }
  auto sel = RegisterSelector::parse(a.reg);
  if (!sel) return fail(sel.error());
  if (!a.index.empty()) {
    if (sel->layout == nullptr) return fail(Error(ErrorCode::InvalidArgument, "--index is for access registers"));
    auto idx = parse_field_list(a.index);
    if (!idx) return fail(idx.error());
    sel->indexes = *idx;
  }
  std::vector<std::uint64_t> guids;
  for (const auto& g : a.guids) {
    auto v = parse_guid(g);
    if (!v) return fail(v.error());
    guids.push_back(*v);
  }
  auto naming = SystemNaming::load(a.files);
  if (!naming) return fail(naming.error());
  auto oob = reach_hosts(a.hosts_file);  // read before anything touches the fabric
  if (!oob) return fail(oob.error());
  for (const auto& w : oob->warnings()) std::cerr << "-W- " << w << '\n';
  auto fabric = open_fabric(a.ca, a.port);
  if (!fabric) return fail(fabric.error());
  std::vector<FabricNode> chosen;
  std::vector<std::string> chosen_names;
  for (const auto& n : fabric->nodes) {
    const std::string name = naming->name_or_guid(n);
    const bool all = guids.empty() && a.names.empty();
    const bool by_guid = std::find(guids.begin(), guids.end(), n.guid) != guids.end();
    const bool by_name = std::find(a.names.begin(), a.names.end(), name) != a.names.end();
    if (all || by_guid || by_name) {
      chosen.push_back(n);
      chosen_names.push_back(name);
    }
  }
  if (chosen.empty()) return fail(Error(ErrorCode::NotFound, "no node on the fabric matches -g/-n"));
  std::vector<Row> rows;
  bool all_read = true;
  const auto read = read_node_registers(chosen, fabric->channel, *sel, oob->names());
  for (std::size_t i = 0; i < read.size(); ++i) {
    all_read = all_read && !read[i].values.empty();
    rows.push_back(Row{chosen_names[i], read[i]});
  }
  if (a.json) cli::print_json(rows_json(rows, *sel));
  else print_table(rows, *sel);
  return all_read ? openflint::cli::kOk : openflint::cli::kFailed;
}

int tool_main(int argc, char** argv) {
  CLI::App app{"ibcon: read one register on fabric nodes in parallel (all, by GUID, by system name); nodes a --hosts "
               "bus server serves are read through it, the rest in-band"};
  Args a;
  app.add_option("register", a.reg,
                 "an access register (MTMP, MGIR; REG.field for one field), a CR-space register the catalog "
                 "names (hw_id) or a CR-space address (0xf0014)")
      ->required();
  // One value per -g/-n, so the register after them is not taken as one more name.
  app.add_option("-g,--guid", a.guids, "only the node with this GUID (repeatable)")->allow_extra_args(false);
  app.add_option("-n,--name", a.names, "only the system with this name (repeatable)")->allow_extra_args(false);
  app.add_option("--index", a.index, "index fields of an access register: f1=v1,f2=v2 (default 0)");
  fabriccli::add_system_name_options(app, a.files, {.topology = false});
  fabriccli::add_hosts_option(app, a.hosts_file);
  fabriccli::add_local_port_options(app, a.ca, a.port);
  app.add_option("-i", a.ca_old, "deprecated spelling of -C,--ca")->group("");
  app.add_flag("--json", a.json, "JSON output");
  app.set_version_flag("--version", openflint::cli::version_line("ibcon"), "print the version and exit");
  if (auto done = openflint::cli::parse_command_line(app, argc, argv)) return *done;
  return run(a);
}

}  // namespace

int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("ibcon", [&] { return tool_main(argc, argv); });
}
