// Arguments: a small hand-written parser, because mlxburn's options are single-dash long names.
#include "burn/cli/Arguments.h"

#include "cli/DeviceForms.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace openflint::burn::cli {
namespace {

Result<OutputFormat> output_format_named(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (name == "BINARY") return OutputFormat::Binary;
  if (name == "IMG" || name == "IMAGE") return OutputFormat::Img;  // IMAGE: imgen mic's spelling
  return make_error(ErrorCode::InvalidArgument, "-format " + name + ": expected BINARY or IMG");
}

Result<void> check_combination(const Arguments& a) {
  if (a.help || a.version) return {};
  if (!a.format.empty() && a.wrimage.empty())
    return make_error(ErrorCode::InvalidArgument, "-format chooses what -wrimage writes: give -wrimage OUT");
  if (!a.image.empty()) {
    if (!a.fw.empty() || !a.conf.empty())
      return make_error(ErrorCode::InvalidArgument, "-image excludes -fw and -conf");
    if (a.dev.empty()) return make_error(ErrorCode::InvalidArgument, "-image needs -dev DEVICE");
    if (!a.wrimage.empty()) return make_error(ErrorCode::InvalidArgument, "-wrimage needs -fw and -conf, not -image");
    return {};
  }
  if (a.fw.empty() || a.conf.empty())
    return make_error(ErrorCode::InvalidArgument, "give -fw DESC and -conf INI (or -image IMG -dev DEVICE)");
  if (a.wrimage.empty() && a.dev.empty())
    return make_error(ErrorCode::InvalidArgument, "nothing to do: give -wrimage OUT and/or -dev DEVICE");
  return {};
}

}  // namespace

std::string usage_text() {
  std::string text = R"(fwburn: generate firmware images from a firmware description and a board INI, and burn them

Usage:
  fwburn -fw DESC -conf INI -wrimage OUT     generate the image into OUT (nothing written on error)
  fwburn -fw DESC -conf INI -dev DEVICE      generate the image and burn it (failsafe)
  fwburn -image IMG -dev DEVICE              burn an existing image (failsafe)
  fwburn -fw DESC -conf INI -wrimage OUT -format IMG   the image as hex text (docs/fwburn.md)

Options (one or two leading dashes; -opt=VALUE also works):
  -fw DESC             firmware description (formats: docs/fwburn.md)
  -conf INI            board configuration INI (PSID, FW version, GUIDs/MACs, ...)
  -wrimage OUT         write the generated image to OUT
  -format BINARY|IMG   what -wrimage writes: BINARY (default) the flash image as burned, byte
                       for byte; IMG the same bytes as hex text, 32-bit words by offset
  -dev DEVICE          device to burn: any name flint -d takes (below)
  -image IMG           image file to burn
  -nofs                burn without failsafe
  -ocr                 write the flash through the CR-space gateway even when the device's
                       running firmware takes the image itself (its default where it can)
  -allow_psid_change   allow burning an image whose PSID differs from the device's
  -use_image_guids     burn the image's GUIDs/MACs (FS3/FS4: its device data) instead of
                       keeping the device's; needed for a blank device
  -use_image_ps        burn the image's VSD instead of keeping the device's
  -h, -help            this text
  -version             print the version

Exit codes: 0 ok; 2 usage error or bad description/INI; 3 bad image; 4 file or device i/o
error; 5 device busy or timeout; 6 not supported; 70 internal error; 128 + N a stop signal
(130 SIGINT, 143 SIGTERM) ended the burn at a safe point, the old image still booting.

)";
  text += ::openflint::cli::device_forms_paragraph("DEVICE (docs/flint.md, \"Device names\") is one of:", 96);
  text += "\nIn-band names (lid-N, iblid-N, ibdr-...) need rdma-core's libibumad, loaded only when\n"
          "used: without it they fail with exit 6; everything else runs without it.\n";
  return text;
}

Result<Arguments> parse_arguments(const std::vector<std::string>& args) {
  Arguments a;
  const std::array<std::pair<const char*, std::string*>, 6> valued{{{"fw", &a.fw},
                                                                   {"conf", &a.conf},
                                                                   {"wrimage", &a.wrimage},
                                                                   {"dev", &a.dev},
                                                                   {"image", &a.image},
                                                                   {"format", &a.format}}};
  const std::array<std::pair<const char*, bool*>, 8> flags{{{"nofs", &a.nofs},
                                                           {"ocr", &a.ocr},
                                                           {"allow_psid_change", &a.allow_psid_change},
                                                           {"use_image_guids", &a.use_image_guids},
                                                           {"use_image_ps", &a.use_image_ps},
                                                           {"help", &a.help},
                                                           {"h", &a.help},
                                                           {"version", &a.version}}};
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i];
    if (name.size() < 2 || name[0] != '-')
      return make_error(ErrorCode::InvalidArgument, "unexpected argument '" + name + "'");
    name.erase(0, name.starts_with("--") ? 2 : 1);
    std::string value;
    bool inline_value = false;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      inline_value = true;
    }
    bool known = false;
    for (auto& [flag, target] : flags) {
      if (name != flag) continue;
      if (inline_value) return make_error(ErrorCode::InvalidArgument, "-" + name + " takes no value");
      *target = known = true;
    }
    for (auto& [option, target] : valued) {
      if (name != option) continue;
      if (!inline_value) {
        if (i + 1 >= args.size()) return make_error(ErrorCode::InvalidArgument, "-" + name + " needs a value");
        value = args[++i];
      }
      if (value.empty()) return make_error(ErrorCode::InvalidArgument, "-" + name + ": empty value");
      if (!target->empty()) return make_error(ErrorCode::InvalidArgument, "-" + name + " given twice");
      *target = value;
      known = true;
    }
    if (!known) return make_error(ErrorCode::InvalidArgument, "unknown option '" + args[i] + "' (see -help)");
  }
  OF_TRY(check_combination(a));
  if (!a.format.empty()) {
    OF_ASSIGN(a.output_format, output_format_named(a.format));
  }
  return a;
}

}  // namespace openflint::burn::cli
