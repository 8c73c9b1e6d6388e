// flint: command-line entry point. Parses mstflint-style arguments and runs one subcommand.
#include <CLI/CLI.hpp>

#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "cli/DeviceForms.h"
#include "cli/ExitCode.h"
#include "cli/ParseCommandLine.h"
#include "cli/ToolBoundary.h"
#include "cli/Version.h"
#include "flint/Subcommands.h"
#include "flint/Options.h"

namespace {

using openflint::flint::Options;
namespace cli = openflint::cli;
namespace flint = openflint::flint;

// After the generated list of device-name forms (cli/DeviceForms.h).
constexpr const char* kFooter = R"(
PCI: DDDD:BB:DD.F or BB:DD.F reach the mapped BAR0 (config space when the BAR is unusable),
pciconf-BDF config space, pcicr-BDF BAR0; mtNNNN_pciconfK / mtNNNN_pci_crK name the K-th
function with PCI device id NNNN (optionally /dev/mst/...), mlx5_N an RDMA device. HOST:PORT,DEVICE
reaches a bus server such as mstmtserver; ssh: runs the host's 'mst server --stdio' through ssh
($OPENFLINT_SSH_COMMAND, $OPENFLINT_REMOTE_MST; docs/remote.md). PCI devices are found under
--sysfs (default: $OPENFLINT_SYSFS_ROOT, else /sys/bus/pci). A device is locked while flint uses
it; another flint waits up to --lock-timeout milliseconds, then fails with exit code 5 ("device busy").

Exit codes: 0 ok; 1 the answer is "no" (e.g. image not bootable); 2 usage error;
3 bad image or archive (or the flash holds none); 4 file or device i/o error (missing file,
powered-off device); 5 device busy or timeout; 6 not supported (e.g. a write that cannot be
done power-cut safely without --force); 7 declined by the user; 70 internal error; 128 + N
a stop signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP, 141 SIGPIPE) ended the command at a safe
point, the device left usable (a burn: the old image still boots).

Examples:
  flint -i fw.bin query              show the image's version, PSID and more
  flint -i fw.bin verify             check every section's CRC
  flint -i fw.mfa archive list       list the boards of an MFA archive
  flint -i fw.mfa --psid MT_0000000199 q
  flint -i fw.mfa archive extract --psid MT_0000000199 -o fw.bin
  flint archive create --format mfa2 --bins images/ -o fw.mfa2   an MFA2 package for devlink/fwupd
  flint -i fw.mfa archive create --format mfa2 [--psid P]... -o fw.mfa2   repack an MFA archive as MFA2
  flint -i fw.mfa2 --psid MT_0000000199 q                         (list, extract, q, v, burn as for .mfa)
  flint archive create --format pldm --bins images/ -o fw.fwpkg  a PLDM (DSP0267) package; -i fw.fwpkg as above
  flint -d sim:/tmp/cx4 q            flash and running FW version, PSID, GUIDs, device, flash chip
  flint -d sim:/tmp/cx4 ww 0x1000 0x12345678    write one dword (power-cut safe, docs/flash-writes.md)
  flint -d sim:/tmp/cx4 -i fw.bin burn          failsafe burn
  flint -i fw.bin sg 0x0002c90300a1b2c0 0x0002c9a1b2c0   set base GUID and MAC in the file
  flint -d sim:/tmp/cx4 sv "my board"           set the VSD on the device (FS3: DEV_INFO)
  flint -d sim:/tmp/cx4 cs                      MD5 without device data (= mstflint -i fw.bin checksum)
  flint -d sim:/tmp/cx4 -i fw.bin bc            exit 0 when the device holds fw.bin's firmware
  flint -d sim:/tmp/cx4 hw query                flash chip, JEDEC id, sizes, write protection)";

int tool_main(int argc, char** argv) {
  CLI::App app{"flint: query, verify and burn InfiniBand/Ethernet adapter and switch firmware", "flint"};
  app.footer("\n" + cli::device_forms_paragraph("Devices (-d):") + "\n" + kFooter);
  app.require_subcommand(1);
  app.set_version_flag("--version", cli::version_line("flint"), "print the version and exit");
  Options options;
  app.add_option("-i,--image", options.image, "firmware image file, or an .mfa/.mfa2/.fwpkg package (with --psid)");
  app.add_option("-d,--device", options.device, "device to operate on (its name forms: Devices, below)");
  app.add_option("--sysfs", options.sysfs_root, "PCI sysfs root for PCI device names (default $OPENFLINT_SYSFS_ROOT or /sys/bus/pci)");
  app.add_option("--psid", options.psid, "board PSID to pick from an .mfa/.mfa2/.fwpkg package");
  app.add_flag("--json", options.json, "print a JSON document on stdout (schema: docs/json.md)");
  app.add_flag("-y,--yes", options.yes, "answer yes to every question");
  app.add_flag("--no", options.no, "answer no to every question");
  app.add_flag("--nofs", options.nofs, "burn without failsafe");
  app.add_flag("--no_flash_verify", options.no_flash_verify, "burn/bb: do not read back and verify each flash write");
  app.add_flag("--ocr", options.ocr,
               "use the CR-space flash gateway even when the device's running firmware owns its flash (burns, "
               "reads and raw writes then go through the firmware: the default on ConnectX-4 and later, Spectrum "
               "and later); writing under the firmware may hang it until a reset; SwitchX: drive the gateway while the "
               "firmware replaces a flash cache line (mstflint -override_cache_replacement)");
  app.add_flag("--override_cache_replacement", options.ocr, "the same as --ocr (mstflint spelling)");
  app.add_flag("--force", options.force, "ww/wb: rewrite a sector in place when it cannot be done power-cut safely");
  app.add_option("--lock-timeout", options.lock_timeout_ms, "milliseconds to wait for a busy device (default 5000)")
      ->check(CLI::NonNegativeNumber);

  std::function<int()> run;
  std::vector<std::string> args(3);  // positional arguments; only one subcommand runs
  std::vector<std::string> words;    // wbne DATA..., sg guids_num=.. step_size=..
  flint::add_subcommands(app, options, run, args, words);
  // Global options (--json, -d, -y, ...) may also follow the subcommand, as with mstflint.
  std::function<void(CLI::App*)> fall_through = [&](CLI::App* parent) {
    for (CLI::App* sub : parent->get_subcommands({})) {
      sub->fallthrough();
      fall_through(sub);
    }
  };
  fall_through(&app);

  if (const auto done = cli::parse_command_line(app, argc, argv)) return *done;
  if (options.yes && options.no) {
    std::cerr << "-E- --yes and --no exclude each other\n";
    return cli::kUsage;
  }
  return run ? run() : cli::kUsage;
}

}  // namespace

int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("flint", [&] { return tool_main(argc, argv); });
}
