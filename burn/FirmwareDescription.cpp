// FirmwareDescription: reads the [firmware] and [section NAME] blocks of a description.
#include "burn/FirmwareDescription.h"

#include <array>
#include <utility>

#include "burn/IniSectionReader.h"
#include "core/InputFile.h"
#include "devices/DeviceCatalog.h"
#include "image/GphSections.h"
#include "image/SectionType.h"

namespace openflint::burn {
namespace {

constexpr std::uint64_t kMaxSectionBytes = 0x400000;
constexpr std::string_view kSectionPrefix = "section ";

constexpr std::array<std::pair<std::string_view, std::uint32_t>, 9> kGphTypes{{
    {"DDR", gph::kDdr}, {"CNF", gph::kCnf}, {"JMP", gph::kJmp}, {"EMT", gph::kEmt},
    {"ROM", gph::kRom}, {"BOARD_ID", gph::kBoardId}, {"USER_DATA", gph::kUserData},
    {"DDRZ", gph::kDdrz}, {"HASH_FILE", gph::kHashFile},
}};

bool gph_format(ImageFormat f) { return f == ImageFormat::Fs1 || f == ImageFormat::Fs2; }

// A user-settable section type by name or number; 0 when not one.
std::uint32_t section_type_code(ImageFormat format, const std::string& value) {
  if (gph_format(format)) {
    for (const auto& [name, code] : kGphTypes)
      if (name == value) return code;
    const auto n = parse_integer(value);
    for (const auto& [name, code] : kGphTypes)
      if (n && *n == code) return code;
    return 0;
  }
  const auto user = [](std::uint64_t t) { return t > 0 && t < 0xe0 && t != section_type::kImageInfo &&
                                                 t != section_type::kDbgFwIni; };
  for (unsigned t = 1; t < 0xe0; ++t)
    if (section_type::name(static_cast<std::uint8_t>(t)) == value && user(t)) return t;
  const auto n = parse_integer(value);
  return n && user(*n) ? static_cast<std::uint32_t>(*n) : 0;
}

Result<const DeviceInfo*> find_device(IniSectionReader& r) {
  OF_ASSIGN(const std::string value, r.text("device", 64));
  if (auto hw = parse_integer(value); hw && *hw <= 0xffff) {
    auto d = find_device_by_hw_id(static_cast<std::uint16_t>(*hw));
    if (d) return *d;
  } else if (auto d = find_device_by_sim_model(value); d) {
    return *d;
  }
  return r.error("device", "unknown device '" + value + "' (give a simulator model name such as "
                           "connectx4, or a catalog hw id such as 0x209)");
}

Result<ImageFormat> check_format(IniSectionReader& r, const DeviceInfo& device) {
  OF_ASSIGN(const auto value, r.optional_text("format", 8));
  if (!value) return device.image_format;
  for (auto f : {ImageFormat::Fs1, ImageFormat::Fs2, ImageFormat::Fs3, ImageFormat::Fs4}) {
    if (*value != to_string(f)) continue;
    if (f != device.image_format)
      return r.error("format", *value + " does not match the device " + std::string(device.name) +
                                   ", which uses " + std::string(to_string(device.image_format)));
    return f;
  }
  return r.error("format", "expected FS1, FS2, FS3 or FS4, got '" + *value + "'");
}

Result<std::vector<std::uint8_t>> read_blob(IniSectionReader& r, std::string_view key,
                                            const std::filesystem::path& path) {
  // Sized before it is read: a section file may not exceed what a section may hold (4 MiB).
  auto data = read_input_file(path.string(), kMaxSectionBytes, "section file");
  if (!data) {
    auto e = r.error(key, data.error().message());
    return make_error(data.error().code(), e.error.message());
  }
  return data;
}

// Bytes from "<prefix>file" or "<prefix>filler_size" (+ "<prefix>seed"); empty when neither.
Result<std::vector<std::uint8_t>> section_bytes(IniSectionReader& r, const std::string& prefix,
                                                const std::filesystem::path& base, std::uint32_t default_seed) {
  const std::string file_key = prefix + "file", size_key = prefix + "filler_size", seed_key = prefix + "seed";
  if (r.has(file_key) && r.has(size_key)) return r.error(size_key, "give either " + file_key + " or " + size_key);
  OF_ASSIGN(const auto file, r.optional_text(file_key, 4096));
  OF_ASSIGN(const auto size, r.optional_integer(size_key, kMaxSectionBytes));
  OF_ASSIGN(const auto seed, r.optional_integer(seed_key, 0xffffffff));
  if (file) {
    if (seed) return r.error(seed_key, "applies to " + size_key + " only");
    return read_blob(r, file_key, base / *file);
  }
  if (size && (*size == 0 || *size % 4 != 0)) return r.error(size_key, "must be a non-zero multiple of 4");
  if (!size) return std::vector<std::uint8_t>{};
  return filler_bytes(*size, seed ? static_cast<std::uint32_t>(*seed) : default_seed);
}

Result<DescribedSection> parse_section(const IniFile& ini, const IniSection& s, ImageFormat format,
                                       const std::filesystem::path& base, std::uint32_t index) {
  IniSectionReader r(ini, &s, s.name);
  DescribedSection out{s.name.substr(kSectionPrefix.size()), 0, 0, {}, s.line};
  OF_ASSIGN(const std::string type, r.text("type", 32));
  out.type = section_type_code(format, type);
  if (out.type == 0)
    return r.error("type", "'" + type + "' is not a section type a " + std::string(to_string(format)) +
                               " description may list (IMAGE_INFO, DBG_FW_INI, GUID, IMG_INFO, FW_CONF "
                               "and device data are generated)");
  OF_ASSIGN(out.data, section_bytes(r, "", base, index + 1));
  if (out.data.empty()) return r.error("file", "missing: give file or filler_size");
  if (out.type != gph::kEmt && out.data.size() % 4 != 0)
    return r.error("file", "size " + std::to_string(out.data.size()) + " is not a multiple of 4");
  OF_ASSIGN(const auto param, r.optional_integer("param", 0xffffffff));
  if (param && !gph_format(format)) return r.error("param", "applies to FS1/FS2 sections only");
  out.param = static_cast<std::uint32_t>(param.value_or(0));
  OF_TRY(r.finish());
  return out;
}

}  // namespace

std::vector<std::uint8_t> filler_bytes(std::size_t size, std::uint32_t seed) {
  std::vector<std::uint8_t> v(size);
  std::uint32_t x = seed * 2654435761u + 0x9e3779b9u;
  if (x == 0) x = 1;
  for (auto& b : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = static_cast<std::uint8_t>(x >> 8);
  }
  return v;
}

Result<FirmwareDescription> parse_firmware_description(const IniFile& ini, const std::filesystem::path& base) {
  FirmwareDescription d;
  d.file = ini.file_name();
  for (const auto& s : ini.sections()) {
    if (s.line == 0 && !s.entries.empty())
      return make_error(ErrorCode::InvalidArgument, ini_where(ini, s.entries.front().line) + s.entries.front().key +
                                                        ": key outside any section (start with [firmware])");
    if (s.line != 0 && s.name != "firmware" && !s.name.starts_with(kSectionPrefix))
      return make_error(ErrorCode::InvalidArgument, ini_where(ini, s.line) + "unknown section [" + s.name +
                                                        "] (expected [firmware] or [section NAME])");
  }
  IniSectionReader fw(ini, ini.find("firmware"), "firmware");
  OF_ASSIGN(d.device, find_device(fw));
  OF_ASSIGN(d.format, check_format(fw, *d.device));
  OF_ASSIGN(const auto name, fw.optional_text("name", 256));
  d.name = name.value_or("");
  OF_ASSIGN(d.boot2, section_bytes(fw, "boot2_", base, 0xb0072));
  if (!d.boot2.empty() && (d.boot2.size() % 4 != 0 || d.boot2.size() < 16))
    return fw.error("boot2_file", "BOOT2 code must be a multiple of 4 bytes, at least 16");
  OF_ASSIGN(const auto mcc, fw.optional_bool("component_update"));
  if (mcc && *mcc && d.format != ImageFormat::Fs3 && d.format != ImageFormat::Fs4)
    return fw.error("component_update", "only FS3 and FS4 images are generated with the component update");
  d.component_update = mcc.value_or(false);
  OF_TRY(fw.finish());
  std::uint32_t index = 0;
  for (const auto& s : ini.sections()) {
    if (!s.name.starts_with(kSectionPrefix)) continue;
    OF_ASSIGN(auto section, parse_section(ini, s, d.format, base, index++));
    d.sections.push_back(std::move(section));
  }
  if (d.sections.empty())
    return make_error(ErrorCode::InvalidArgument,
                      ini_where(ini, ini.last_line()) + "no [section NAME] blocks: an image needs code");
  return d;
}

Result<FirmwareDescription> load_firmware_description(const std::filesystem::path& path) {
  OF_ASSIGN(const IniFile ini, IniFile::load(path));
  return parse_firmware_description(ini, path.parent_path());
}

}  // namespace openflint::burn
