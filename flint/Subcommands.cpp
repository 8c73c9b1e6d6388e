// Subcommands: flint's subcommands registered with CLI11, grouped by purpose; main.cpp parses and runs the chosen one.
#include "flint/Subcommands.h"

#include "flint/Commands.h"

namespace openflint::flint {
namespace {

using Runner = std::function<int()>;

// query/verify work on -d DEVICE when given, else on -i IMAGE.
void add_query_verify(CLI::App& app, Options& options, Runner& run) {
  auto* query = app.add_subcommand("query", "show firmware version, PSID, GUIDs and more (of -d DEVICE or -i IMAGE)")
                    ->alias("q");
  query->callback([&] {
    run = [&] { return options.device.empty() ? run_query(options) : run_device_query(options); };
  });
  auto* verify = app.add_subcommand("verify", "check every section; exit 0 only if bootable")->alias("v");
  verify->callback([&] {
    run = [&] { return options.device.empty() ? run_verify(options) : run_device_verify(options); };
  });
}

// FS4 signing; the key flags are global, as mstflint's, so they may stand before the command.
void add_sign(CLI::App& app, Options& options, Runner& run) {
  const char* group = "Signing (FS4 images)";
  app.add_option("--private_key,--private-key", options.private_key, "sign: the RSA private key (PEM, 2048 or 4096 bits)")
      ->group(group);
  app.add_option("--key_uuid,--key-uuid", options.key_uuid, "sign: the key pair's UUID (32 hex digits)")->group(group);
  app.add_option("--public_key,--public-key", options.public_key,
                 "v/q: check the image signature with this RSA public key (PEM); v fails unless it verifies")
      ->group(group);
  auto* sign = app.add_subcommand("sign", "sign the FS4 image -i IMAGE in place with --private_key and --key_uuid "
                                          "(2048-bit: IMAGE_SIGNATURE_256, 4096-bit: IMAGE_SIGNATURE_512); "
                                          "without them, write its SHA-256 digest");
  sign->callback([&] { run = [&] { return run_sign(options); }; });
}

void add_archive(CLI::App& app, Options& options, Runner& run, std::vector<std::string>& a) {
  std::string& dc_out = a[2];
  auto* dc = app.add_subcommand("dc", "dump the image's INI configuration (to OUT or stdout)");
  dc->add_option("OUT", dc_out, "output file");
  dc->callback([&] { run = [&] { return run_dump_config(options, dc_out); }; });

  auto* archive = app.add_subcommand("archive", "MFA/MFA2/PLDM package commands: list, extract, create");
  archive->require_subcommand(1);
  auto* list = archive->add_subcommand("list", "one line per board: PSID, part number, FW version, description");
  list->callback([&] { run = [&] { return run_archive_list(options); }; });
  std::string& extract_out = a[2];
  auto* extract = archive->add_subcommand("extract", "write one board's firmware image to a file");
  extract->add_option("--psid", options.psid, "board PSID")->required();
  extract->add_option("-o,--output", extract_out, "output image file")->required();
  extract->callback([&] { run = [&] { return run_archive_extract(options, extract_out); }; });
  auto* create = archive->add_subcommand("create", "build an MFA2 package (what devlink and fwupd take) or a PLDM "
                                                   "package (DSP0267 .fwpkg) from FS3/FS4 images (--bins), or repack "
                                                   "the boards of -i PACKAGE (.mfa/.mfa2) into MFA2: one device and one "
                                                   "firmware component per PSID");
  create->add_option("--format", options.archive_format, "package format: mfa2 or pldm")
      ->required()
      ->check(CLI::IsMember({"mfa2", "pldm"}));
  create->add_option("--bins", options.archive_inputs, "images, or directories of images");
  create->add_option("--psid", options.archive_psids, "with -i PACKAGE: only these boards (repeat; default: all)");
  create->add_option("-o,--output", extract_out, "output package file (written atomically)")->required();
  create->callback([&] {
    run = [&] {
      return options.archive_format == "pldm" ? run_pldm_create(options, options.archive_inputs, extract_out)
                                              : run_archive_create(options, options.archive_inputs, extract_out);
    };
  });
}

// Raw flash commands on -d DEVICE; positional arguments land in `a` (sized 3 by main).
void add_flash_commands(CLI::App& app, Options& options, Runner& run, std::vector<std::string>& a) {
  auto sub = [&](const char* name, const char* help) { return app.add_subcommand(name, help); };
  auto* erase = sub("erase", "erase the flash sector holding ADDR")->alias("e");
  erase->add_option("ADDR", a[0], "flash address")->required();
  erase->callback([&] { run = [&] { return run_erase(options, a[0]); }; });
  auto* rw = sub("rw", "read one dword of flash at ADDR");
  rw->add_option("ADDR", a[0], "dword-aligned flash address")->required();
  rw->callback([&] { run = [&] { return run_rw(options, a[0]); }; });
  auto* ww = sub("ww", "write one dword at ADDR, keeping the rest of its sector even if power is cut");
  ww->add_option("ADDR", a[0], "dword-aligned flash address")->required();
  ww->add_option("DATA", a[1], "32-bit value (stored big-endian)")->required();
  ww->callback([&] { run = [&] { return run_ww(options, a[0], a[1]); }; });
  auto* wwne = sub("wwne", "write one dword at ADDR without erasing (bits can only go 1 -> 0)");
  wwne->add_option("ADDR", a[0], "dword-aligned flash address")->required();
  wwne->add_option("DATA", a[1], "32-bit value (stored big-endian)")->required();
  wwne->callback([&] { run = [&] { return run_wwne(options, a[0], a[1]); }; });
  auto* rb = sub("rb", "read SIZE bytes of flash at ADDR into file OUT");
  rb->add_option("ADDR", a[0], "flash address")->required();
  rb->add_option("SIZE", a[1], "bytes")->required();
  rb->add_option("OUT", a[2], "output file")->required();
  rb->callback([&] { run = [&] { return run_rb(options, a[0], a[1], a[2]); }; });
  auto* wb = sub("wb", "write FILE to flash at ADDR (power-cut safe like ww)");
  wb->add_option("FILE", a[2], "input file")->required();
  wb->add_option("ADDR", a[0], "flash address")->required();
  wb->callback([&] { run = [&] { return run_wb(options, a[2], a[0]); }; });
  auto* ri = sub("ri", "read the firmware image from flash into file OUT");
  ri->add_option("OUT", a[2], "output file")->required();
  ri->callback([&] { run = [&] { return run_ri(options, a[2]); }; });
  auto* reset = sub("reset", "reboot the device; 'query' then shows the new running FW");
  reset->callback([&] { run = [&] { return run_device_reset(options); }; });
}

void add_burn(CLI::App& app, Options& options, Runner& run) {
  auto* burn = app.add_subcommand("burn", "burn -i IMAGE into -d DEVICE (failsafe unless --nofs; the board keeps "
                                          "its GUIDs, MACs, VSD and device data)")->alias("b");
  burn->add_flag("--allow_psid_change", options.allow_psid_change, "allow an image with another PSID");
  burn->callback([&] { run = [&] { return run_burn(options); }; });
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
  sg->callback([&] { run = [&] { return run_set_guids(options, a[0], a[1], words); }; });
  auto* sv = app.add_subcommand("sv", "set the VSD (at most 208 bytes) of -i IMAGE (in place) or -d DEVICE");
  sv->add_option("VSD", a[2], "vendor specific data text")->required();
  sv->callback([&] { run = [&] { return run_set_vsd(options, a[2]); }; });
}

// Maintenance and comparison on -d DEVICE (cs also on -i IMAGE), with mstflint's names.
void add_maintenance(CLI::App& app, Options& options, Runner& run, std::vector<std::string>& a,
                     std::vector<std::string>& data_words) {
  auto* swreset = app.add_subcommand("swreset", "software reset of a switch -d DEVICE (adapters: not supported)");
  swreset->callback([&] { run = [&] { return run_swreset(options); }; });

  auto* hw = app.add_subcommand("hw", "hardware commands: query");
  hw->require_subcommand(1);
  auto* hw_query = hw->add_subcommand("query", "flash chip, JEDEC id, size, sector size, write protection");
  hw_query->callback([&] { run = [&] { return run_hw_query(options); }; });

  auto* cs = app.add_subcommand("checksum", "MD5 of the firmware without device data (of -d DEVICE or -i IMAGE)")
                 ->alias("cs");
  cs->callback([&] { run = [&] { return run_checksum(options); }; });

  auto* bc = app.add_subcommand("binary_compare", "compare -d DEVICE's firmware with -i IMAGE; exit 1 if they differ")
                 ->alias("bc");
  bc->callback([&] { run = [&] { return run_binary_compare(options); }; });

  auto* bb = app.add_subcommand("bb", "burn -i IMAGE into -d DEVICE as is, in place, without failsafe (asks first)");
  bb->callback([&] { run = [&] { return run_burn_block(options); }; });

  auto* wbne = app.add_subcommand("wbne", "write SIZE bytes of DATA dwords at ADDR without erasing");
  wbne->add_option("ADDR", a[0], "dword-aligned flash address")->required();
  wbne->add_option("SIZE", a[1], "bytes (a multiple of 4, 4 per DATA word)")->required();
  wbne->add_option("DATA", data_words, "32-bit values, stored big-endian")->required();
  wbne->callback([&] { run = [&] { return run_wbne(options, a[0], a[1], data_words); }; });

  auto* clear = app.add_subcommand("clear_semaphore", "free every lock and semaphore a killed tool left held (VSEC gateway, ICMD and tools HCR semaphores, flash lock, the firmware's update handle); refused while a live process uses the device");
  clear->callback([&] { run = [&] { return run_clear_semaphore(options); }; });
}

}  // namespace

void add_subcommands(CLI::App& app, Options& options, std::function<int()>& run, std::vector<std::string>& args,
                     std::vector<std::string>& words) {
  add_query_verify(app, options, run);                   // image or device
  add_archive(app, options, run, args);                  // MFA archives, the image's INI
  add_flash_commands(app, options, run, args);           // raw flash of a device, reset
  add_burn(app, options, run);                           // burn and the board's identity
  add_identity_flags(app, options);
  add_set_commands(app, options, run, args, words);      // sg, sv
  add_sign(app, options, run);                           // FS4 image signing
  add_maintenance(app, options, run, args, words);       // swreset, hw query, cs, bc, bb, wbne, clear_semaphore
}

}  // namespace openflint::flint
