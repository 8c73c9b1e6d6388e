// hcasim: command-line entry point for creating and controlling simulated devices (sim:PATH).
#include <CLI/CLI.hpp>

#include <functional>

#include "cli/ExitCode.h"
#include "cli/ParseCommandLine.h"
#include "cli/ToolBoundary.h"
#include "cli/Version.h"
#include "hcasim/PciServe.h"
#include "hcasim/SimCommands.h"

namespace {

namespace hs = openflint::hcasim;

constexpr const char* kFooter = R"(
A simulated device lives in a directory PATH (state.json, flash.bin, lock); flint
uses it as -d sim:PATH. Every command locks the device while it runs.

Exit codes (as flint's): 0 ok; 2 usage error (bad model, PATH already holds a device);
3 bad image; 4 file or device i/o error (no device at PATH, image missing); 5 device busy;
6 not supported (the model's flash gateway is not simulated); 70 internal error; 128 + N a
stop signal ended the command at a safe point.

Examples:
  hcasim create --model connectx4 /tmp/cx4 --image fw.bin    factory-burned, then powered on
  hcasim create --model mt47396 /tmp/is3 --image is3.bin     InfiniScale III: firmware in 4 I2C EEPROMs
  hcasim fault /tmp/cx4 --power-cut-after-ops 12             power drops after 12 erase/program ops
  flint -d sim:/tmp/cx4 -i new.bin burn                      ... is interrupted by the power cut
  hcasim power-on /tmp/cx4                                   power returns, the boot ROM runs
  hcasim set-temperature /tmp/cx4 97                         MTMP (ibmon, ibcon, mst reg) reads 97 C
  hcasim show /tmp/cx4 --json                                powered, boot mode, running FW, counters
  hcasim pci-serve /tmp/cx4 --sysfs /tmp/pci &               /tmp/cx4 as PCI function 0000:03:00.0
  OPENFLINT_SYSFS_ROOT=/tmp/pci flint -d 03:00.0 q          ... reached through its BAR (pciconf-03:00.0: config space))";

}  // namespace

namespace {

int tool_main(int argc, char** argv) {
  CLI::App app{"hcasim: create and control simulated InfiniBand/Ethernet adapters and switches", "hcasim"};
  app.footer(kFooter);
  app.require_subcommand(1);
  app.set_version_flag("--version", openflint::cli::version_line("hcasim"), "print the version and exit");
  bool json = false;
  app.add_flag("--json", json, "print a JSON document on stdout");
  std::function<int()> run;

  hs::CreateArgs create_args;
  auto* create = app.add_subcommand("create", "create a simulated device in directory PATH (powered on)");
  create->add_option("--model", create_args.model,
                     "catalog simulator model: " + hs::simulated_models())
      ->required();
  create->add_option("PATH", create_args.path, "directory for the device (created)")->required();
  create->add_option("--image", create_args.image, "image file pre-burned at flash offset 0 (as a factory would)");
  create->add_option("--flash", create_args.flash, "flash chip name (default: the model's), e.g. N25Q032A");
  create->callback([&] { run = [&] { return hs::run_create(create_args, json); }; });

  std::string path;
  std::uint64_t ops = 0;
  auto* fault = app.add_subcommand("fault", "arm a fault on the device at PATH");
  fault->add_option("PATH", path, "device directory")->required();
  fault->add_option("--power-cut-after-ops", ops,
                    "power is lost after N more flash erase/program operations (0 disarms); afterwards every "
                    "access fails as on a powered-off device until 'power-on'")
      ->required();
  fault->callback([&] { run = [&] { return hs::run_fault(path, ops, json); }; });

  auto* power_on = app.add_subcommand("power-on", "power returns and the boot ROM runs");
  power_on->add_option("PATH", path, "device directory")->required();
  power_on->callback([&] { run = [&] { return hs::run_power_on(path, json); }; });

  std::uint32_t celsius = 0;
  auto* temperature = app.add_subcommand("set-temperature", "the device's temperature sensor (MTMP sensor 0) reads CELSIUS");
  temperature->add_option("PATH", path, "device directory")->required();
  temperature->add_option("CELSIUS", celsius, "whole degrees Celsius, 0..255 (a new device reads 45)")
      ->required()
      ->check(CLI::Range(0, 255));
  temperature->callback([&] { run = [&] { return hs::run_set_temperature(path, celsius, json); }; });

  auto* show = app.add_subcommand("show", "power, boot mode, running FW, PSID, ids, temperature, flash counters");
  show->add_option("PATH", path, "device directory")->required();
  show->callback([&] { run = [&] { return hs::run_show(path, json); }; });

  hs::PciServeArgs serve_args;
  auto* serve = app.add_subcommand(
      "pci-serve", "serve devices as PCI functions: a sysfs tree at MOUNT (FUSE: config space, attributes, "
                   "reset) and shared-memory BAR0s, until SIGTERM/SIGINT; then unmount and save");
  serve->add_option("PATH", serve_args.paths, "device directories (hcasim create)")->required();
  serve->add_option("--sysfs", serve_args.sysfs, "mount point of the served tree (use it as OPENFLINT_SYSFS_ROOT, "
                                                 "lspci -O sysfs.path=, or mount it over /sys/bus/pci in a namespace)")
      ->required();
  serve->add_option("--bdf", serve_args.bdfs, "PCI address of each device, in order (default 0000:03:00.0, 0000:04:00.0, ...)");
  serve->add_option("--shm-dir", serve_args.shm_dir, "where the BAR files live (default /dev/shm)");
  serve->add_flag("--no-bar", serve_args.no_bar, "serve config space only (no resource0)");
  serve->add_flag("--reset-clears-config", serve_args.reset_clears_config,
                  "a reset leaves BAR0 and the command register cleared, as a bus reset the kernel does not wrap "
                  "(default: they survive, as around the kernel's function reset)");
  serve->add_flag("--no-reset-register", serve_args.no_reset_register,
                  "the devices' firmware has no reset register (MFRL answers 'not supported'): a PCI reset cannot "
                  "load new firmware");
  serve->add_option("--driver", serve_args.drivers,
                    "a simulated kernel driver bound to each device, in order ('-': none), e.g. mlx5_core: "
                    "devices/BDF/driver and drivers/NAME/{bind,unbind}");
  serve->add_option("--tracefs", serve_args.tracefs,
                    "a tracing directory to serve beside the sysfs tree (created): a device bound to mlx5_core has a "
                    "simulated driver take its firmware tracer and write the mlx5_fw lines to DIR/trace (use it as "
                    "OPENFLINT_TRACEFS_ROOT, or bind-mount it over /sys/kernel/debug/tracing)");
  serve->callback([&] { run = [&] { return hs::run_pci_serve(serve_args, json); }; });

  for (CLI::App* sub : app.get_subcommands({})) sub->fallthrough();  // --json after the subcommand
  if (const auto done = openflint::cli::parse_command_line(app, argc, argv)) return *done;
  return run ? run() : openflint::cli::kUsage;
}

}  // namespace

int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("hcasim", [&] { return tool_main(argc, argv); });
}
