// mst: list devices (PCI and fabric), read and write CR-space, dump registers, reset adapters safely.
#include <CLI/CLI.hpp>

#include <functional>

#include "cli/DeviceForms.h"
#include "cli/ExitCode.h"
#include "cli/ParseCommandLine.h"
#include "cli/ToolBoundary.h"
#include "cli/Version.h"
#include "mst/Commands.h"

namespace {

// After the generated list of device-name forms (cli/DeviceForms.h).
constexpr const char* kFooter = R"(
OPENFLINT_SYSFS_ROOT (or --sysfs) names another sysfs PCI root, e.g. one served by hcasim pci-serve.

Exit codes (as flint's): 0 ok; 2 usage error (bad address, unaligned, out of CR-space); 3 a saved
configuration (mst load) is malformed or another card's; 4 i/o error, no such device or
permission denied; 5 device busy (another process holds it, a bound driver) or a wait timed out;
6 not supported; 7 declined; 70 internal error; 128 + N a stop signal (130 SIGINT, 143 SIGTERM,
129 SIGHUP, 141 SIGPIPE) ended the command at a safe point, the device left usable.)";

int tool_main(int argc, char** argv) {
  CLI::App app{"mst: list devices, read/write CR-space, dump registers, reset adapters, read firmware traces", "mst"};
  app.footer("\n" + openflint::cli::device_forms_paragraph("Devices:") + kFooter);
  app.require_subcommand(1);
  app.set_version_flag("--version", openflint::cli::version_line("mst"), "print the version and exit");
  openflint::mst::Common common;
  app.add_flag("--json", common.json, "print a JSON document on stdout");
  std::function<int()> run;
  openflint::mst::add_status_commands(app, run, common);
  openflint::mst::add_pci_config_commands(app, run, common);
  openflint::mst::add_register_commands(app, run, common);
  openflint::mst::add_reset_command(app, run, common);
  openflint::mst::add_config_command(app, run, common);
  openflint::mst::add_vpd_command(app, run, common);
  openflint::mst::add_reg_command(app, run, common);
  openflint::mst::add_i2c_command(app, run, common);
  openflint::mst::add_server_command(app, run, common);
  openflint::mst::add_web_command(app, run, common);
  openflint::mst::add_trace_command(app, run, common);
  for (CLI::App* sub : app.get_subcommands({})) sub->fallthrough();  // --json after the subcommand
  if (const auto done = openflint::cli::parse_command_line(app, argc, argv)) return *done;
  return run ? run() : openflint::cli::kUsage;
}

}  // namespace

int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("mst", [&] { return tool_main(argc, argv); });
}
