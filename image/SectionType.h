// SectionType: FS3/FS4 ITOC/DTOC section type codes and the names mstflint prints for them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace openflint::section_type {

constexpr std::uint8_t kBootCode = 0x01;
constexpr std::uint8_t kPciCode = 0x02;
constexpr std::uint8_t kMainCode = 0x03;
constexpr std::uint8_t kHwBootCfg = 0x08;
constexpr std::uint8_t kHwMainCfg = 0x09;
constexpr std::uint8_t kImageInfo = 0x10;
constexpr std::uint8_t kFwBootCfg = 0x11;
constexpr std::uint8_t kFwMainCfg = 0x12;
constexpr std::uint8_t kRomCode = 0x18;
constexpr std::uint8_t kResetInfo = 0x20;
constexpr std::uint8_t kDbgFwIni = 0x30;
// openflint's own type, not a vendor one: the formats of our simulated firmware's trace
// messages (image/FirmwareTraceStrings.h). 0x60 is unused in mstflint's fs3_section_t.
constexpr std::uint8_t kTraceStrings = 0x60;
constexpr std::uint8_t kImageSignature256 = 0xa0;
constexpr std::uint8_t kPublicKeys2048 = 0xa1;
constexpr std::uint8_t kImageSignature512 = 0xa3;
constexpr std::uint8_t kPublicKeys4096 = 0xa4;
constexpr std::uint8_t kMfgInfo = 0xe0;
constexpr std::uint8_t kDevInfo = 0xe1;
constexpr std::uint8_t kNvData1 = 0xe2;
constexpr std::uint8_t kVpdR0 = 0xe3;
constexpr std::uint8_t kNvData2 = 0xe4;
constexpr std::uint8_t kFwNvLog = 0xe5;
constexpr std::uint8_t kNvData0 = 0xe6;
constexpr std::uint8_t kHashesTable = 0xfa;
constexpr std::uint8_t kHwPointers = 0xfb;
constexpr std::uint8_t kToolsArea = 0xfc;
constexpr std::uint8_t kItoc = 0xfd;
constexpr std::uint8_t kDtoc = 0xfe;
constexpr std::uint8_t kEnd = 0xff;

// The name mstflint uses for a type ("MAIN_CODE", "ITOC_HEADER", ...), "UNKNOWN" when none.
[[nodiscard]] std::string_view name(std::uint8_t type);
// The sections a query reads (IMAGE_INFO, DEV_INFO, MFG_INFO): all other sections' bytes can
// stay unread when only the version, PSID and ids are wanted.
[[nodiscard]] bool is_query_section(std::uint8_t type);
// The label printed in a verify line: the name, or "UNKNOWN:0x<type>" for unknown types.
[[nodiscard]] std::string display_name(std::uint8_t type);

}  // namespace openflint::section_type
