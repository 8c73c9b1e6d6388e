// flint: command-line entry point. Parses mstflint-style arguments and runs one subcommand.
#include <CLI/CLI.hpp>

#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "flint/Commands.h"
#include "flint/ExitCode.h"
#include "flint/Options.h"

namespace {

using openflint::cli::Options;

constexpr const char* kFooter = R"(
Exit codes: 0 ok; 1 the answer is "no" (e.g. image not bootable); 2 usage error;
3 bad image or archive; 4 file or device i/o error; 5 device busy or timeout;
6 not supported; 7 declined by the user; 70 internal error.

Examples:
  flint -i fw.bin query              show the image's version, PSID and more
  flint -i fw.bin verify             check every section's CRC
  flint -i fw.mfa archive list       list the boards of an MFA archive
  flint -i fw.mfa --psid MT_0000000199 q
  flint -i fw.mfa archive extract --psid MT_0000000199 -o fw.bin)";

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"flint: query, verify and burn InfiniBand/Ethernet adapter and switch firmware", "flint"};
  app.footer(kFooter);
  app.require_subcommand(1);
  app.fallthrough();  // global options may follow the command: `flint -i X q --json`
  Options options;
  app.add_option("-i,--image", options.image, "firmware image file, or an .mfa archive (with --psid)");
  app.add_option("-d,--device", options.device, "device to operate on (e.g. sim:PATH, lid-3)");
  app.add_option("--psid", options.psid, "board PSID to pick from an .mfa archive");
  app.add_flag("--json", options.json, "print a JSON document on stdout (schema: docs/json.md)");
  app.add_flag("-y,--yes", options.yes, "answer yes to every question");
  app.add_flag("--no", options.no, "answer no to every question");
  app.add_flag("--nofs", options.nofs, "burn without failsafe");

  std::function<int()> run;
  auto* query = app.add_subcommand("query", "show firmware version, PSID, GUIDs and more")->alias("q");
  query->callback([&] { run = [&] { return openflint::cli::run_query(options); }; });

  auto* verify = app.add_subcommand("verify", "check every section; exit 0 only if bootable")->alias("v");
  verify->callback([&] { run = [&] { return openflint::cli::run_verify(options); }; });

  std::string dc_out;
  auto* dc = app.add_subcommand("dc", "dump the image's INI configuration (to OUT or stdout)");
  dc->add_option("OUT", dc_out, "output file");
  dc->callback([&] { run = [&] { return openflint::cli::run_dump_config(options, dc_out); }; });

  auto* archive = app.add_subcommand("archive", "MFA archive commands: list, extract");
  archive->require_subcommand(1);
  archive->fallthrough();
  auto* list = archive->add_subcommand("list", "one line per board: PSID, part number, FW version, description");
  list->callback([&] { run = [&] { return openflint::cli::run_archive_list(options); }; });
  std::string extract_out;
  auto* extract = archive->add_subcommand("extract", "write one board's firmware image to a file");
  extract->add_option("--psid", options.psid, "board PSID")->required();
  extract->add_option("-o,--output", extract_out, "output image file")->required();
  extract->callback([&] { run = [&] { return openflint::cli::run_archive_extract(options, extract_out); }; });

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return openflint::cli::kUsage;
  }
  if (options.yes && options.no) {
    std::cerr << "-E- --yes and --no exclude each other\n";
    return openflint::cli::kUsage;
  }
  return run ? run() : openflint::cli::kUsage;
}
