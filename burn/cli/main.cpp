// fwburn: command-line entry point — generate an image (-wrimage) and/or burn it (-dev).
#include <iostream>
#include <string>
#include <vector>

#include "burn/ImageGenerator.h"
#include "burn/ImageText.h"
#include "burn/cli/Arguments.h"
#include "burn/cli/DeviceBurn.h"
#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/ToolBoundary.h"
#include "cli/Version.h"
#include "core/MappedFile.h"
#include "core/OutputFile.h"
#include "devices/FlashChip.h"
#include "image/FirmwareImage.h"
#include "image/FirmwarePackage.h"

namespace {

using namespace openflint;

int fail(const Error& error) { return cli::report_error(error, false); }

// What -wrimage writes: the image (BINARY) or its IMG text, titled with what print_generated says.
Result<void> write_generated(const burn::cli::Arguments& args, const std::vector<std::uint8_t>& image) {
  if (args.output_format == burn::cli::OutputFormat::Binary) return write_output_file(args.wrimage, image, "image");
  auto q = query_image(image);
  std::string title = "fwburn IMG form of a " + (q ? std::string(to_string(q->format)) : std::string("?")) +
                      " image, " + std::to_string(image.size()) + " bytes";
  if (q && q->fw_version) title += ", FW " + q->fw_version->to_string();
  if (q) title += ", PSID " + q->psid;
  const std::string text = burn::image_text(image, title);
  const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
  return write_output_file(args.wrimage, Bytes(data, text.size()), "image");
}

void print_generated(const std::vector<std::uint8_t>& image, const std::string& out, bool img_text) {
  auto q = query_image(image);
  std::cout << "-I- Generated " << (q ? std::string(to_string(q->format)) : "?") << " image, "
            << image.size() << " bytes";
  if (q && q->fw_version) std::cout << ", FW " << q->fw_version->to_string();
  if (q) std::cout << ", PSID " << q->psid;
  std::cout << (out.empty() ? "" : " -> " + out + (img_text ? " (IMG text)" : "")) << '\n';
}

BurnOptions burn_options(const burn::cli::Arguments& args) {
  BurnOptions options;
  options.failsafe = !args.nofs;
  options.override_firmware = args.ocr;
  options.allow_psid_change = args.allow_psid_change;
  options.identity.use_image_guids = args.use_image_guids;
  options.identity.use_image_vsd = args.use_image_ps;
  options.progress = [](const BurnProgress& p) {
    if (p.total != 0 && p.done == p.total) std::cout << "-I- " << p.stage << ": done\n";
  };
  return options;
}

int print_burned(const burn::cli::Arguments& args, std::size_t size, const Result<BurnReport>& report) {
  if (!report) return fail(report.error());
  std::cout << "-I- Burned " << size << " bytes into " << args.dev << " (copy at 0x" << std::hex
            << report->new_copy_address << std::dec << ", " << report->sectors_erased << " sectors erased, "
            << report->sectors_unchanged << " unchanged)\n";
  const IdentityPlan& id = report->identity;
  std::cout << "-I- Board identity: GUIDs/MACs from the " << to_string(id.uids_from) << ", VSD from the "
            << to_string(id.vsd_from) << " (\"" << id.vsd << "\")\n";
  return cli::kOk;
}

int burn(const burn::cli::Arguments& args, Bytes image) {
  return print_burned(args, image.size(), burn::cli::burn_to_device(args.dev, image, burn_options(args)));
}

// -image names a package (MFA, MFA2): the device's own PSID picks the board (-image always comes with -dev).
int burn_package(const burn::cli::Arguments& args) {
  std::size_t size = 0;
  auto report = burn::cli::burn_package_to_device(args.dev, args.image, burn_options(args), size);
  if (report) std::cout << "-I- Took the image for the device's PSID out of " << args.image << '\n';
  return print_burned(args, size, report);
}

int run(const burn::cli::Arguments& args) {
  if (!args.image.empty() && package_kind_of_file(args.image)) return burn_package(args);
  if (!args.image.empty()) {
    auto file = MappedFile::open(args.image, largest_flash_size(), "image");
    if (!file) return fail(file.error());
    if (auto q = query_image(file->bytes()); !q) return fail(q.error().with_context(args.image));
    return burn(args, file->bytes());
  }
  auto image = burn::generate_image_from_files(args.fw, args.conf);
  if (!image) return fail(image.error());
  if (!args.wrimage.empty()) {
    if (auto written = write_generated(args, *image); !written) return fail(written.error());
  }
  print_generated(*image, args.wrimage, args.output_format == burn::cli::OutputFormat::Img);
  return args.dev.empty() ? cli::kOk : burn(args, *image);
}

}  // namespace

namespace {

int tool_main(int argc, char** argv) {
  const std::vector<std::string> raw(argv + 1, argv + argc);
  if (raw.empty()) {
    std::cerr << burn::cli::usage_text();
    return cli::kUsage;
  }
  auto args = burn::cli::parse_arguments(raw);
  if (!args) {
    std::cerr << "-E- " << args.error().message() << "\n\n" << burn::cli::usage_text();
    return cli::kUsage;
  }
  if (args->help) {
    std::cout << burn::cli::usage_text();
    return cli::kOk;
  }
  if (args->version) {
    std::cout << cli::version_line("fwburn") << '\n';
    return cli::kOk;
  }
  return run(*args);
}

}  // namespace

int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("fwburn", [&] { return tool_main(argc, argv); });
}
