// ibtopogen: writes the topology file (and optionally the ibsim topology) of a two-level fat tree.
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/ParseCommandLine.h"
#include "cli/ToolBoundary.h"
#include "cli/Version.h"
#include "core/OutputFile.h"
#include "fabric/FatTree.h"
#include "fabric/IbsimTopology.h"

namespace {

using namespace openflint;

Result<void> write_text(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::cout << text << std::flush;
    return {};
  }
  // The outputs rule of every tool (core/OutputFile): a file is replaced atomically, a link is refused.
  return write_output_file(path, Bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), "topology output");
}

int tool_main(int argc, char** argv) {
  CLI::App app{
      "ibtopogen: writes the topology file of a two-level fat tree (leaf L: ports 1..H to its hosts, "
      "ports H+1..H+S to spine 1..S, which takes it on its port L)"};
  FatTreeSpec spec;
  std::string output = "-";
  std::string ibsim;
  app.add_option("--spines", spec.spines, "number of spine switches")->capture_default_str();
  app.add_option("--leaves", spec.leaves, "number of leaf switches")->capture_default_str();
  app.add_option("--hosts-per-leaf", spec.hosts_per_leaf, "hosts on each leaf")->capture_default_str();
  app.add_option("--leaf-ports", spec.leaf_ports, "ports of a leaf (default: the switch type's)");
  app.add_option("--spine-ports", spec.spine_ports, "ports of a spine (default: the switch type's)");
  app.add_option("--spine-name", spec.spine_name, "spine name pattern (%d: its number)")->capture_default_str();
  app.add_option("--leaf-name", spec.leaf_name, "leaf name pattern")->capture_default_str();
  app.add_option("--host-name", spec.host_name, "host name pattern")->capture_default_str();
  app.add_option("--switch-type", spec.switch_type, "switch system type: a catalog part number or model")
      ->capture_default_str();
  app.add_option("--host-type", spec.host_type, "host (HCA) system type: a catalog part number or model")
      ->capture_default_str();
  app.add_option("-o,--output", output, "topology file to write ('-': standard output)")->capture_default_str();
  app.add_option("--ibsim", ibsim, "also write the ibsim topology of the same fabric (for simfabric up --topology)");
  app.set_version_flag("--version", openflint::cli::version_line("ibtopogen"), "print the version and exit");
  if (auto done = openflint::cli::parse_command_line(app, argc, argv)) return *done;

  auto topology = make_fat_tree(spec);
  if (!topology) return openflint::cli::report_error(topology.error(), false);
  if (!ibsim.empty()) {
    auto text = ibsim_topology_text(*topology);
    if (!text) return openflint::cli::report_error(text.error(), false);
    if (auto written = write_text(ibsim, *text); !written) return openflint::cli::report_error(written.error(), false);
  }
  const std::string header = "# two-level fat tree: " + std::to_string(spec.spines) + " spines, " +
                             std::to_string(spec.leaves) + " leaves, " + std::to_string(spec.hosts_per_leaf) +
                             " hosts per leaf (ibtopogen)\n";
  if (auto written = write_text(output, header + topology->to_text()); !written)
    return openflint::cli::report_error(written.error(), false);
  return openflint::cli::kOk;
}

}  // namespace

int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("ibtopogen", [&] { return tool_main(argc, argv); });
}
