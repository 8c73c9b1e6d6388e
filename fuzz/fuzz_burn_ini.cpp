// Fuzz target: fwburn's readers — IniFile, the firmware description and the board INI — on arbitrary text.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "burn/BoardConfig.h"
#include "burn/FirmwareDescription.h"
#include "burn/IniFile.h"

namespace {

using namespace openflint::burn;

// Input: description text, a NUL byte, board INI text. When the description does not parse, the
// INI is read against one of these (a byte of the input picks which), so it is fuzzed anyway.
constexpr std::array<std::string_view, 4> kFallbacks{
    "[firmware]\ndevice = connectx4\n[section c]\ntype = MAIN_CODE\nfiller_size = 0x40\n",
    "[firmware]\ndevice = connectx3\n[section c]\ntype = DDR\nfiller_size = 0x40\n",
    "[firmware]\ndevice = mt25204\n[section c]\ntype = DDR\nfiller_size = 0x40\n",
    "[firmware]\ndevice = spectrum\n[section c]\ntype = MAIN_CODE\nfiller_size = 0x40\n",
};

// Blob "file" keys resolve against a folder that does not exist: the target fuzzes parsing, not the disk.
constexpr const char* kBaseDir = "/nonexistent/openflint-fuzz";

openflint::Result<FirmwareDescription> describe(const std::string& text, const char* name) {
  auto ini = IniFile::parse(text, name);
  if (!ini) return openflint::make_error(std::move(ini).error());
  return parse_firmware_description(*ini, kBaseDir);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = all.find('\0');
  const std::string desc_text(all.substr(0, cut));
  const std::string ini_text(cut == std::string_view::npos ? std::string_view() : all.substr(cut + 1));
  auto desc = describe(desc_text, "fuzz.fwdesc");
  if (!desc) desc = describe(std::string(kFallbacks[size % kFallbacks.size()]), "fallback.fwdesc");
  if (!desc) return 0;
  auto board_ini = IniFile::parse(ini_text, "fuzz.ini");
  if (!board_ini) return 0;
  (void)parse_board_config(*board_ini, *desc);
  return 0;
}
