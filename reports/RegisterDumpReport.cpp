// RegisterDumpReport: the dump's text lines and JSON document.
#include "reports/RegisterDumpReport.h"

#include <cstdio>

#include "core/HexString.h"

namespace openflint::reports {
namespace {

// " # name field=0x.. ..." for a named register (dump -v).
std::string register_comment(const CrRegister& reg, std::uint32_t value) {
  std::string s = " # " + reg.name;
  for (const RegisterField& f : reg.fields) s += " " + std::string(f.name) + "=" + hex_string(field_value(f, value));
  return s;
}

}  // namespace

std::string dump_text(const RegisterDump& dump, bool verbose) {
  std::string text;
  text.reserve(dump.words.size() * 22);
  char line[32];
  for (const DumpedWord& w : dump.words) {
    std::snprintf(line, sizeof line, "0x%08x 0x%08x", w.address, w.value);
    text += line;
    if (verbose) {
      if (const CrRegister* reg = find_cr_register(dump.registers, w.address)) text += register_comment(*reg, w.value);
    }
    text += '\n';
  }
  if (verbose) {
    for (const SkippedRegister& s : dump.skipped)
      text += "# " + hex_dword(s.address) + " " + s.name + " not read: " + s.reason + "\n";
  }
  return text;
}

nlohmann::json dump_json(const std::string& device, const DeviceInfo& info, const RegisterDump& dump, bool full,
                         double seconds) {
  nlohmann::json ranges = nlohmann::json::array(), words = nlohmann::json::array(), named = nlohmann::json::array(),
                 skipped = nlohmann::json::array();
  for (const DumpRange& r : dump.ranges)
    ranges.push_back({{"first", hex_dword(r.first)}, {"dwords", r.dwords}, {"name", r.name}, {"full_only", r.full_only}});
  for (const DumpedWord& w : dump.words) {
    words.push_back({hex_dword(w.address), hex_dword(w.value)});
    const CrRegister* reg = find_cr_register(dump.registers, w.address);
    if (reg == nullptr) continue;
    nlohmann::json fields = nlohmann::json::object();
    for (const RegisterField& f : reg->fields) fields[std::string(f.name)] = hex_string(field_value(f, w.value));
    named.push_back({{"address", hex_dword(w.address)}, {"name", reg->name}, {"value", hex_dword(w.value)}, {"fields", fields}});
  }
  for (const SkippedRegister& s : dump.skipped)
    skipped.push_back({{"address", hex_dword(s.address)}, {"name", s.name}, {"reason", s.reason}});
  return {{"ok", true},
          {"device", device},
          {"family", info.name},
          {"hw_id", hex_string(info.hw_id)},
          {"cr_space_size", hex_string(info.cr_space.size)},
          {"full", full},
          {"ranges", ranges},
          {"words", words},
          {"named", named},
          {"skipped", skipped},
          {"read_transactions", dump.transactions},
          {"seconds", seconds}};
}

}  // namespace openflint::reports
