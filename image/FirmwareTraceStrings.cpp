// FirmwareTraceStrings: the simulated firmware's trace messages as data, and the TRACE_STRINGS section codec.
#include "image/FirmwareTraceStrings.h"

#include <array>

#include "core/HexString.h"
#include "image/Fs3Image.h"
#include "image/Fs4Image.h"
#include "image/SectionType.h"
#include "image/TocWalk.h"

namespace openflint {
namespace {

using TM = FirmwareTraceMessage;
using TL = TraceLevel;

// In FirmwareTraceMessage order (a test checks it). Every conversion is a 32-bit integer.
constexpr std::array<FirmwareTraceMessageInfo, 18> kMessages{{
    {TM::Boot, "boot: firmware %u.%u.%u runs from the copy at 0x%x", "INIT", "class1", TL::Info},
    {TM::BootRecovery, "boot: no bootable copy on the flash, flash recovery mode (device id 0x%x)", "INIT", "class1",
     TL::Error},
    {TM::RegisterRefused, "access register 0x%x method %u refused with status 0x%x", "CMD_IF", "class1", TL::Warning},
    {TM::UpdateState, "component update: state %u -> %u (component %u)", "FLASH", "class2", TL::Info},
    {TM::UpdateError, "component update: component %u failed with error 0x%x in state %u", "FLASH", "class2",
     TL::Error},
    {TM::FlashErase, "flash: erase at 0x%x, 0x%x bytes", "FLASH", "class2", TL::Info},
    {TM::FlashProgram, "flash: program at 0x%x, 0x%x bytes", "FLASH", "class2", TL::Debug},
    {TM::ResetArmed, "MFRL: reset armed for levels 0x%x", "PWR", "class1", TL::Info},
    {TM::ResetRun, "reset: firmware reset runs (armed levels 0x%x)", "PWR", "class1", TL::Info},
    {TM::NvConfigStored, "NV config: item type 0x%x stored", "MANAGEMENT", "class1", TL::Info},
    {TM::NvConfigReset, "NV config: item type 0x%x back to its default", "MANAGEMENT", "class1", TL::Info},
    {TM::NvConfigResetAll, "NV config: every item back to its default", "MANAGEMENT", "class1", TL::Info},
    {TM::TemperatureHigh, "thermal: ASIC at %u C, above the warning threshold of %u C", "PWR", "class1", TL::Warning},
    {TM::TemperatureNormal, "thermal: ASIC at %u C, back below %u C", "PWR", "class1", TL::Info},
    {TM::SetItrace, "itrace: unit mask 0x%x, level %u, delay %u us", "ICMD", "class1", TL::Info},
    {TM::OwnerTaken, "tracer: ownership granted", "MANAGEMENT", "class1", TL::Info},
    {TM::OwnerReleased, "tracer: ownership released", "MANAGEMENT", "class1", TL::Info},
    {TM::FlashEraseUnit, "flash: erase unit at 0x%x", "FLASH", "class2", TL::Debug},
}};

constexpr std::uint16_t kTraceStringsVersion = 1;

void put_strings_be32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

Result<std::vector<std::string>> bad_trace_strings(const std::string& why) {
  return make_error(ErrorCode::InvalidImage, "TRACE_STRINGS section: " + why);
}

}  // namespace

std::span<const FirmwareTraceMessageInfo> firmware_trace_messages() { return kMessages; }

const FirmwareTraceMessageInfo& firmware_trace_message(FirmwareTraceMessage message) {
  return kMessages[static_cast<std::size_t>(message)];
}

std::vector<std::string_view> firmware_trace_formats() {
  std::vector<std::string_view> out;
  for (const auto& m : kMessages) out.push_back(m.format);
  return out;
}

Result<std::vector<std::uint8_t>> encode_trace_strings(std::span<const std::string_view> formats) {
  if (formats.size() > kMaxTraceStringsFormats)
    return make_error(ErrorCode::InvalidArgument, "trace strings: " + std::to_string(formats.size()) +
                                                      " formats, at most " + std::to_string(kMaxTraceStringsFormats));
  std::size_t strings = 0;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    if (formats[i].find('\0') != std::string_view::npos)
      return make_error(ErrorCode::InvalidArgument, "trace strings: format " + std::to_string(i) + " holds a NUL");
    if (formats[i].size() > kMaxTraceStringsFormatLength)
      return make_error(ErrorCode::InvalidArgument, "trace strings: format " + std::to_string(i) + " is longer than " +
                                                        std::to_string(kMaxTraceStringsFormatLength) + " bytes");
    strings += formats[i].size() + 1;
  }
  std::vector<std::uint8_t> out(kTraceStringsHeader + (strings + 3) / 4 * 4, 0);
  put_strings_be32(out, 0, kTraceStringsMagic);
  put_strings_be32(out, 4, std::uint32_t{kTraceStringsVersion} << 16 | static_cast<std::uint32_t>(formats.size()));
  put_strings_be32(out, 8, static_cast<std::uint32_t>(strings));
  std::size_t at = kTraceStringsHeader;
  for (const std::string_view f : formats) {
    std::copy(f.begin(), f.end(), out.begin() + static_cast<std::ptrdiff_t>(at));
    at += f.size() + 1;  // the NUL is already there
  }
  return out;
}

std::vector<std::uint8_t> firmware_trace_strings_section() {
  const std::vector<std::string_view> formats = firmware_trace_formats();
  auto section = encode_trace_strings(formats);
  return section ? std::move(*section) : std::vector<std::uint8_t>{};  // our table always encodes (a test checks)
}

Result<std::vector<std::string>> decode_trace_strings(Bytes section) {
  if (section.size() < kTraceStringsHeader)
    return bad_trace_strings(std::to_string(section.size()) + " bytes, shorter than its header");
  const std::uint8_t* p = section.data();
  if (ByteReader::load_be32(p) != kTraceStringsMagic) return bad_trace_strings("bad magic " + hex_string(ByteReader::load_be32(p)));
  const std::uint32_t word1 = ByteReader::load_be32(p + 4);
  if (word1 >> 16 != kTraceStringsVersion) return bad_trace_strings("version " + std::to_string(word1 >> 16) + " is not 1");
  const std::size_t count = word1 & 0xffff;
  const std::uint32_t strings = ByteReader::load_be32(p + 8);
  if (count > kMaxTraceStringsFormats)
    return bad_trace_strings(std::to_string(count) + " formats, at most " + std::to_string(kMaxTraceStringsFormats));
  if (strings > section.size() - kTraceStringsHeader)
    return bad_trace_strings("strings of " + std::to_string(strings) + " bytes run past the section's " +
                       std::to_string(section.size()) + " bytes");
  const std::string_view text(reinterpret_cast<const char*>(p + kTraceStringsHeader), strings);
  std::vector<std::string> out;
  out.reserve(count);
  std::size_t at = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t nul = text.find('\0', at);
    if (nul == std::string_view::npos) return bad_trace_strings("format " + std::to_string(i) + " has no NUL");
    if (nul - at > kMaxTraceStringsFormatLength)
      return bad_trace_strings("format " + std::to_string(i) + " is longer than " +
                         std::to_string(kMaxTraceStringsFormatLength) + " bytes");
    out.emplace_back(text.substr(at, nul - at));
    at = nul + 1;
  }
  return out;
}

Result<std::optional<Bytes>> find_trace_strings_section(Bytes flash, ImageFormat format, std::uint64_t image_start) {
  if (format != ImageFormat::Fs3 && format != ImageFormat::Fs4) return std::optional<Bytes>{};
  const bool fs4 = format == ImageFormat::Fs4;
  OF_ASSIGN(const ItocLocation at, fs4 ? fs4::locate_itoc(flash, image_start) : fs3::locate_itoc(flash, image_start));
  const TocWalkConfig config{.kind = TocKind::Itoc,
                             .fs4 = fs4,
                             .addressing = fs4 ? TocAddressing::Relative : TocAddressing::PerEntryBit,
                             .image_start = image_start,
                             .wants = [](std::uint8_t type) { return type == section_type::kTraceStrings; }};
  const TocWalk walk = walk_toc(flash, at.itoc, config);
  const TocSection* found = walk.find_good(section_type::kTraceStrings);
  if (found == nullptr) return std::optional<Bytes>{};
  return std::optional<Bytes>{found->data};
}

}  // namespace openflint
