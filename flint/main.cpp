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
#include "flint/Commands.h"
#include "flint/MoreCommands.h"
#include "flint/Options.h"

namespace {

using openflint::cli::Options;
using Runner = std::function<int()>;
namespace cli = openflint::cli;

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
  flint -d sim:/tmp/cx4 q            flash and running FW version, PSID, GUIDs, device, flash chip
  flint -d sim:/tmp/cx4 ww 0x1000 0x12345678    write one dword (power-cut safe, docs/flash-writes.md)
  flint -d sim:/tmp/cx4 -i fw.bin burn          failsafe burn
  flint -i fw.bin sg 0x0002c90300a1b2c0 0x0002c9a1b2c0   set base GUID and MAC in the file
  flint -d sim:/tmp/cx4 sv "my board"           set the VSD on the device (FS3: DEV_INFO)
  flint -d sim:/tmp/cx4 cs                      MD5 without device data (= mstflint -i fw.bin checksum)
  flint -d sim:/tmp/cx4 -i fw.bin bc            exit 0 when the device holds fw.bin's firmware
  flint -d sim:/tmp/cx4 hw query                flash chip, JEDEC id, sizes, write protection)";

// query/verify work on -d DEVICE when given, else on -i IMAGE.
void add_query_verify(CLI::App& app, Options& options, Runner& run) {
  auto* query = app.add_subcommand("query", "show firmware version, PSID, GUIDs and more (of -d DEVICE or -i IMAGE)")
                    ->alias("q");
  query->callback([&] {
    run = [&] { return options.device.empty() ? cli::run_query(options) : cli::run_device_query(options); };
  });
  auto* verify = app.add_subcommand("verify", "check every section; exit 0 only if bootable")->alias("v");
  verify->callback([&] {
    run = [&] { return options.device.empty() ? cli::run_verify(options) : cli::run_device_verify(options); };
  });
}

void add_archive(CLI::App& app, Options& options, Runner& run, std::vector<std::string>& a) {
  std::string& dc_out = a[2];
  auto* dc = app.add_subcommand("dc", "dump the image's INI configuration (to OUT or stdout)");
  dc->add_option("OUT", dc_out, "output file");
  dc->callback([&] { run = [&] { return cli::run_dump_config(options, dc_out); }; });

  auto* archive = app.add_subcommand("archive", "MFA archive commands: list, extract");
  archive->require_subcommand(1);
  auto* list = archive->add_subcommand("list", "one line per board: PSID, part number, FW version, description");
  list->callback([&] { run = [&] { return cli::run_archive_list(options); }; });
  std::string& extract_out = a[2];
  auto* extract = archive->add_subcommand("extract", "write one board's firmware image to a file");
  extract->add_option("--psid", options.psid, "board PSID")->required();
  extract->add_option("-o,--output", extract_out, "output image file")->required();
  extract->callback([&] { run = [&] { return cli::run_archive_extract(options, extract_out); }; });
}

// Raw flash commands on -d DEVICE; positional arguments land in `a` (sized 3 by main).
void add_flash_commands(CLI::App& app, Options& options, Runner& run, std::vector<std::string>& a) {
  auto sub = [&](const char* name, const char* help) { return app.add_subcommand(name, help); };
  auto* erase = sub("erase", "erase the flash sector holding ADDR")->alias("e");
  erase->add_option("ADDR", a[0], "flash address")->required();
  erase->callback([&] { run = [&] { return cli::run_erase(options, a[0]); }; });
  auto* rw = sub("rw", "read one dword of flash at ADDR");
  rw->add_option("ADDR", a[0], "dword-aligned flash address")->required();
  rw->callback([&] { run = [&] { return cli::run_rw(options, a[0]); }; });
  auto* ww = sub("ww", "write one dword at ADDR, keeping the rest of its sector even if power is cut");
  ww->add_option("ADDR", a[0], "dword-aligned flash address")->required();
  ww->add_option("DATA", a[1], "32-bit value (stored big-endian)")->required();
  ww->callback([&] { run = [&] { return cli::run_ww(options, a[0], a[1]); }; });
  auto* wwne = sub("wwne", "write one dword at ADDR without erasing (bits can only go 1 -> 0)");
  wwne->add_option("ADDR", a[0], "dword-aligned flash address")->required();
  wwne->add_option("DATA", a[1], "32-bit value (stored big-endian)")->required();
  wwne->callback([&] { run = [&] { return cli::run_wwne(options, a[0], a[1]); }; });
  auto* rb = sub("rb", "read SIZE bytes of flash at ADDR into file OUT");
  rb->add_option("ADDR", a[0], "flash address")->required();
  rb->add_option("SIZE", a[1], "bytes")->required();
  rb->add_option("OUT", a[2], "output file")->required();
  rb->callback([&] { run = [&] { return cli::run_rb(options, a[0], a[1], a[2]); }; });
  auto* wb = sub("wb", "write FILE to flash at ADDR (power-cut safe like ww)");
  wb->add_option("FILE", a[2], "input file")->required();
  wb->add_option("ADDR", a[0], "flash address")->required();
  wb->callback([&] { run = [&] { return cli::run_wb(options, a[2], a[0]); }; });
  auto* ri = sub("ri", "read the firmware image from flash into file OUT");
  ri->add_option("OUT", a[2], "output file")->required();
  ri->callback([&] { run = [&] { return cli::run_ri(options, a[2]); }; });
  auto* reset = sub("reset", "reboot the device; 'query' then shows the new running FW");
  reset->callback([&] { run = [&] { return cli::run_device_reset(options); }; });
}

void add_burn(CLI::App& app, Options& options, Runner& run) {
  auto* burn = app.add_subcommand("burn", "burn -i IMAGE into -d DEVICE (failsafe unless --nofs; the board keeps "
                                          "its GUIDs, MACs, VSD and device data)")->alias("b");
  burn->add_flag("--allow_psid_change", options.allow_psid_change, "allow an image with another PSID");
  burn->callback([&] { run = [&] { return cli::run_burn(options); }; });
}

// mstflint's burn flags for the board's identity; global, so they may stand before the command.
void add_identity_flags(CLI::App& app, Options& options) {
  const char* group = "Burn identity (default: keep the device's)";
  app.add_flag("--use_image_guids", options.use_image_guids, "burn the image's GUIDs/MACs (FS3/FS4: its device data)")
      ->group(group);
  app.add_flag("--use_image_ps", options.use_image_ps, "burn the image's VSD instead of the device's")->group(group);
  app.add_flag("--blank_guids", options.blank_guids, "burn all-ones GUIDs/MACs (set them later with sg)")->group(group);
  app.add_flag("--ignore_dev_data", options.ignore_dev_data, "FS3/FS4: the image file's device data replaces the board's")
      ->group(group);
  app.add_option("--guid", options.guid, "base GUID: node, port1, port2, system image count up from it")->group(group);
  app.add_option("--guids", options.guids, "the 4 GUIDs: node port1 port2 system-image")->expected(4)->group(group);
  app.add_option("--mac", options.mac, "base MAC: port1, port2 count up from it")->group(group);
  app.add_option("--macs", options.macs, "the 2 MACs: port1 port2")->expected(2)->group(group);
  app.add_option("--uid", options.uid, "FS3/FS4 base GUID")->group(group);
  app.add_option("--vsd", options.vsd, "burn this VSD (at most 208 bytes)")->group(group)
      ->each([&](const std::string&) { options.vsd_given = true; });
  app.add_flag("-s,--silent", options.silent, "no progress or information lines");
  app.add_option("--log", options.log, "burn: append timestamped lines of what was done to FILE");
}

void add_set_commands(CLI::App& app, Options& options, Runner& run, std::vector<std::string>& a,
                      std::vector<std::string>& words) {
  auto* sg = app.add_subcommand("sg", "set the base GUID (and base MAC) of -i IMAGE (in place) or -d DEVICE");
  sg->add_option("GUID", a[0], "base GUID, hex (node, port and system GUIDs count up from it)")->required();
  sg->add_option("MAC", a[1], "base MAC, hex, 48 bits (omitted: the MACs stay)");
  sg->add_option("PARAMS", words, "FS3: guids_num=N[,N2] step_size=S[,S2] (GUIDs per port, step between them)");
  sg->callback([&] { run = [&] { return cli::run_set_guids(options, a[0], a[1], words); }; });
  auto* sv = app.add_subcommand("sv", "set the VSD (at most 208 bytes) of -i IMAGE (in place) or -d DEVICE");
  sv->add_option("VSD", a[2], "vendor specific data text")->required();
  sv->callback([&] { run = [&] { return cli::run_set_vsd(options, a[2]); }; });
}

}  // namespace

namespace {

int tool_main(int argc, char** argv) {
  CLI::App app{"flint: query, verify and burn InfiniBand/Ethernet adapter and switch firmware", "flint"};
  app.footer("\n" + cli::device_forms_paragraph("Devices (-d):") + "\n" + kFooter);
  app.require_subcommand(1);
  app.set_version_flag("--version", cli::version_line("flint"), "print the version and exit");
  Options options;
  app.add_option("-i,--image", options.image, "firmware image file, or an .mfa archive (with --psid)");
  app.add_option("-d,--device", options.device, "device to operate on (its name forms: Devices, below)");
  app.add_option("--sysfs", options.sysfs_root, "PCI sysfs root for PCI device names (default $OPENFLINT_SYSFS_ROOT or /sys/bus/pci)");
  app.add_option("--psid", options.psid, "board PSID to pick from an .mfa archive");
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

  Runner run;
  std::vector<std::string> args(3);  // positional arguments; only one subcommand runs
  add_query_verify(app, options, run);
  add_archive(app, options, run, args);
  add_flash_commands(app, options, run, args);
  add_burn(app, options, run);
  add_identity_flags(app, options);
  std::vector<std::string> words;  // wbne DATA..., sg guids_num=.. step_size=..
  add_set_commands(app, options, run, args, words);
  cli::add_more_commands(app, options, run, args, words);
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
