// Arguments: fwburn's mlxburn-style command line (-fw DESC -conf INI -wrimage OUT -dev DEV ...).
#pragma once

#include <string>
#include <vector>

#include "core/Result.h"

namespace openflint::burn::cli {

// -format: what -wrimage writes (docs/fwburn.md, "Output formats").
enum class OutputFormat {
  Binary,  // BINARY: the flash image as burned, byte for byte
  Img,     // IMG: the same bytes as offset-addressed hex words (burn/ImageText)
};

struct Arguments {
  std::string fw;        // -fw DESC: firmware description
  std::string conf;      // -conf INI: board configuration
  std::string wrimage;   // -wrimage OUT: write the generated image
  std::string dev;       // -dev DEVICE: burn into a device (sim:PATH)
  std::string image;     // -image IMG: burn an existing image
  std::string format;    // -format BINARY|IMG as given (empty: not given)
  OutputFormat output_format = OutputFormat::Binary;
  bool nofs = false;                // -nofs: burn without failsafe
  bool ocr = false;                 // -ocr: the flash gateway even when the running firmware takes burns
  bool allow_psid_change = false;   // -allow_psid_change
  bool use_image_guids = false;     // -use_image_guids: the image's GUIDs/MACs (FS3/FS4: device data)
  bool use_image_ps = false;        // -use_image_ps: the image's VSD
  bool help = false;                // -h, -help, --help
  bool version = false;             // -version, --version
};

// Options take one dash or two ("-fw X", "--fw X", "-fw=X"). InvalidArgument for unknown
// options, missing values and combinations that make no sense.
[[nodiscard]] Result<Arguments> parse_arguments(const std::vector<std::string>& args);

// The -help text; lists every device-name form -dev takes (cli/DeviceForms).
[[nodiscard]] std::string usage_text();

}  // namespace openflint::burn::cli
