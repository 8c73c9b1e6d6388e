// BoardConfig: reads [image], [board] and [flash] of a board INI with per-format limits.
#include "burn/BoardConfig.h"

#include <algorithm>
#include <bit>

#include "burn/IniSectionReader.h"
#include "core/HexString.h"

namespace openflint::burn {
namespace {

bool is_fs3(ImageFormat f) { return f == ImageFormat::Fs3 || f == ImageFormat::Fs4; }

// A key that the format does not use is an error, not silently ignored.
Result<void> refuse_for(IniSectionReader& r, std::string_view key, bool applies, ImageFormat f) {
  if (r.has(key) && !applies)
    return r.error(key, "does not apply to " + std::string(to_string(f)) + " images");
  return {};
}

Result<void> read_image(IniSectionReader& r, const FirmwareDescription& t, BoardConfig& c) {
  OF_ASSIGN(c.psid, r.text("psid", 16));
  OF_ASSIGN(c.fw_version, r.version("fw_version"));
  OF_ASSIGN(c.release_date, r.optional_date("release_date"));
  OF_TRY(refuse_for(r, "description", is_fs3(t.format), t.format));
  OF_TRY(refuse_for(r, "part_number", is_fs3(t.format), t.format));
  OF_TRY(refuse_for(r, "product_version", !is_fs3(t.format), t.format));
  OF_ASSIGN(const auto description, r.optional_text("description", 256));
  OF_ASSIGN(const auto part_number, r.optional_text("part_number", 64));
  OF_ASSIGN(const auto product_version, r.optional_text("product_version", 16));
  OF_ASSIGN(const auto vsd, r.optional_text("vsd", 208));
  c.description = description.value_or("");
  c.part_number = part_number.value_or("");
  c.product_version = product_version.value_or("");
  c.vsd = vsd.value_or("");
  OF_ASSIGN(const auto ids, r.optional_integer_list("supported_hw_ids", 0xffffffff));
  const std::size_t max_ids = is_fs3(t.format) ? 4 : 200;
  if (ids.size() > max_ids) return r.error("supported_hw_ids", "more than " + std::to_string(max_ids) + " ids");
  for (auto id : ids) c.supported_hw_ids.push_back(static_cast<std::uint32_t>(id));
  if (c.supported_hw_ids.empty()) c.supported_hw_ids.push_back(t.device->hw_id);
  const auto matches = [&](std::uint32_t id) { return (id & 0xffff) == t.device->hw_id; };
  if (std::none_of(c.supported_hw_ids.begin(), c.supported_hw_ids.end(), matches))
    return r.error("supported_hw_ids", "does not include the target device " + std::string(t.device->name) +
                                           " (hw id " + hex_string(t.device->hw_id) + ")");
  return r.finish();
}

Result<void> read_board(IniSectionReader& r, const FirmwareDescription& t, BoardConfig& c) {
  OF_ASSIGN(c.base_guid, r.integer("base_guid", ~std::uint64_t{0}));
  OF_TRY(refuse_for(r, "base_mac", t.format != ImageFormat::Fs1, t.format));
  OF_TRY(refuse_for(r, "guid_count", is_fs3(t.format), t.format));
  OF_TRY(refuse_for(r, "mac_count", is_fs3(t.format), t.format));
  OF_ASSIGN(const auto mac, r.optional_integer("base_mac", 0xffffffffffff));
  OF_ASSIGN(const auto guids, r.optional_integer("guid_count", 255));
  OF_ASSIGN(const auto macs, r.optional_integer("mac_count", 255));
  c.base_mac = mac.value_or(0);
  c.guid_count = static_cast<std::uint8_t>(guids.value_or(8));
  c.mac_count = static_cast<std::uint8_t>(macs.value_or(8));
  return r.finish();
}

Result<void> read_flash(IniSectionReader& r, const FirmwareDescription& t, BoardConfig& c) {
  // FS1 has no chunks; FS4 has none either (its copies are found by the HW pointers).
  const bool chunked = t.format != ImageFormat::Fs1 && t.format != ImageFormat::Fs4;
  OF_TRY(refuse_for(r, "log2_chunk_size", chunked, t.format));
  OF_TRY(refuse_for(r, "chunk_size", chunked, t.format));
  OF_TRY(refuse_for(r, "flash_size", is_fs3(t.format), t.format));
  OF_TRY(refuse_for(r, "log2_sector_size", t.format == ImageFormat::Fs1, t.format));
  if (r.has("log2_chunk_size") && r.has("chunk_size"))
    return r.error("chunk_size", "give either log2_chunk_size or chunk_size");
  OF_ASSIGN(const auto log2_chunk, r.optional_integer("log2_chunk_size", 24));
  OF_ASSIGN(const auto chunk, r.optional_integer("chunk_size", std::uint64_t{1} << 24));
  if (chunk && (*chunk & (*chunk - 1)) != 0) return r.error("chunk_size", "must be a power of two");
  if (log2_chunk) c.log2_chunk_size = static_cast<unsigned>(*log2_chunk);
  if (chunk) c.log2_chunk_size = static_cast<unsigned>(std::countr_zero(*chunk));
  const unsigned max_chunk = t.format == ImageFormat::Fs2 ? 23 : 24;
  if (c.log2_chunk_size && (*c.log2_chunk_size < 16 || *c.log2_chunk_size > max_chunk))
    return r.error(chunk ? "chunk_size" : "log2_chunk_size",
                   "chunk must be 2^16 .. 2^" + std::to_string(max_chunk) + " bytes");
  OF_ASSIGN(c.flash_size, r.optional_integer("flash_size", std::uint64_t{1} << 30));
  OF_ASSIGN(const auto sector, r.optional_integer("log2_sector_size", 20));
  if (sector && *sector < 12) return r.error("log2_sector_size", "must be 12..20");
  if (sector) c.log2_sector_size = static_cast<unsigned>(*sector);
  return r.finish();
}

}  // namespace

Result<BoardConfig> parse_board_config(const IniFile& ini, const FirmwareDescription& target) {
  for (const auto& s : ini.sections()) {
    if (s.line == 0 && !s.entries.empty())
      return make_error(ErrorCode::InvalidArgument, ini_where(ini, s.entries.front().line) + s.entries.front().key +
                                                        ": key outside any section (start with [image])");
    if (s.line != 0 && s.name != "image" && s.name != "board" && s.name != "flash")
      return make_error(ErrorCode::InvalidArgument, ini_where(ini, s.line) + "unknown section [" + s.name +
                                                        "] (expected [image], [board], [flash])");
  }
  BoardConfig c;
  c.ini_text = ini.text();
  IniSectionReader image(ini, ini.find("image"), "image");
  OF_TRY(read_image(image, target, c));
  IniSectionReader board(ini, ini.find("board"), "board");
  OF_TRY(read_board(board, target, c));
  IniSectionReader flash(ini, ini.find("flash"), "flash");
  OF_TRY(read_flash(flash, target, c));
  return c;
}

Result<BoardConfig> load_board_config(const std::filesystem::path& path, const FirmwareDescription& target) {
  OF_ASSIGN(const IniFile ini, IniFile::load(path));
  return parse_board_config(ini, target);
}

}  // namespace openflint::burn
