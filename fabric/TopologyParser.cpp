// Topology::parse: the IBDM topology file (grammar: docs/fabric-topology.md) line by line, errors with line numbers.
#include <map>
#include <set>
#include <sstream>

#include "fabric/Topology.h"

namespace openflint {
namespace {

auto at_line(int line, const std::string& text) {
  return make_error(ErrorCode::InvalidArgument, "line " + std::to_string(line) + ": " + text);
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Where the comment starts: the first '#' outside a "quoted name" (npos: none).
std::size_t comment_start(std::string_view raw) {
  bool quoted = false;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '"') quoted = !quoted;
    if (raw[i] == '#' && !quoted) return i;
  }
  return std::string_view::npos;
}

struct TopoWord {
  std::string text;
  std::size_t begin = 0;  // offset in the line
  bool quoted = false;
};

// Splits into bare words and "quoted names" (no escapes; a name cannot hold '"'). With
// `cfg_rest`, a bare third word starting with "CFG:" takes the rest of the text verbatim
// (trailing blanks dropped): a header's board configuration.
Result<std::vector<TopoWord>> topo_words(std::string_view s, int line_no, bool cfg_rest) {
  std::vector<TopoWord> words;
  std::size_t i = 0;
  while (true) {
    while (i < s.size() && is_blank(s[i])) ++i;
    if (i >= s.size()) return words;
    if (s[i] == '"') {
      const std::size_t close = s.find('"', i + 1);
      if (close == std::string_view::npos) return at_line(line_no, "unterminated quote: " + std::string(s.substr(i)));
      if (close == i + 1) return at_line(line_no, "empty quoted name");
      if (close + 1 < s.size() && !is_blank(s[close + 1]))
        return at_line(line_no, "a quoted name must be followed by a blank: " + std::string(s.substr(i)));
      words.push_back(TopoWord{.text = std::string(s.substr(i + 1, close - i - 1)), .begin = i, .quoted = true});
      i = close + 1;
      continue;
    }
    std::size_t end = i;
    while (end < s.size() && !is_blank(s[end])) ++end;
    std::string word(s.substr(i, end - i));
    if (cfg_rest && words.size() == 2 && word.starts_with("CFG:")) {
      std::string rest(s.substr(i));
      while (!rest.empty() && is_blank(rest.back())) rest.pop_back();
      words.push_back(TopoWord{.text = std::move(rest), .begin = i, .quoted = false});
      return words;
    }
    if (word.find('"') != std::string::npos)
      return at_line(line_no, "a '\"' inside a word (quote the whole name): " + word);
    words.push_back(TopoWord{.text = std::move(word), .begin = i, .quoted = false});
    i = end;
  }
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// The annotation between an arrow's dashes: IBDM's "-4x-10G->" (width, speed, each optional).
// Accepted and not kept: the cabling check compares systems and ports, not rates.
Result<void> check_arrow(std::string_view arrow, int line_no) {
  // arrow is "-...->" (its first '-' through its '>')
  const auto bad = [&](const std::string& why) {
    return at_line(line_no, why + " in '" + std::string(arrow) + "' (expected '->', '-4x->', '-10G->' or '-4x-10G->')");
  };
  if (arrow.size() < 2 || arrow[arrow.size() - 2] != '-') return bad("unknown arrow");
  std::string_view middle = arrow.substr(1, arrow.size() - 2);  // between the first '-' and the final "->"
  if (middle.empty()) return {};
  if (!middle.ends_with('-')) return bad("unknown arrow");
  middle.remove_suffix(1);
  bool width_seen = false;
  bool speed_seen = false;
  while (!middle.empty()) {
    const auto dash = middle.find('-');
    const std::string_view part = middle.substr(0, dash);
    middle = dash == std::string_view::npos ? std::string_view{} : middle.substr(dash + 1);
    if (part.size() >= 2 && (part.back() == 'x' || part.back() == 'X') && !width_seen && !speed_seen) {
      const auto n = part.substr(0, part.size() - 1);
      if (n != "1" && n != "2" && n != "4" && n != "8" && n != "12") return bad("unknown link width " + std::string(part));
      width_seen = true;
    } else if (part.size() >= 2 && (part.back() == 'G' || part.back() == 'g') && !speed_seen) {
      const auto n = part.substr(0, part.size() - 1);
      const auto dot = n.find('.');
      if (!all_digits(n.substr(0, dot)) || (dot != std::string_view::npos && !all_digits(n.substr(dot + 1))))
        return bad("unknown link speed " + std::string(part));
      speed_seen = true;
    } else {
      return bad("unknown link annotation '" + std::string(part) + "'");
    }
  }
  return {};
}

struct CableLine {
  std::string local;        // as written, e.g. "P1"
  std::string remote_type;
  std::string remote_name;
  std::string remote_port;  // as written
};

// LOCAL-PORT ARROW REMOTE-TYPE REMOTE-NAME REMOTE-PORT, the arrow with or without blanks around it.
Result<CableLine> cable_line(std::string_view s, int line_no, const std::string& raw) {
  const auto unknown = [&] {
    return at_line(line_no, "unknown syntax (expected 'PORT -> SYSTEM-TYPE SYSTEM-NAME PORT'): " + raw);
  };
  std::size_t i = 0;
  while (i < s.size() && is_blank(s[i])) ++i;
  std::size_t end = i;
  while (end < s.size() && !is_blank(s[end]) && s[end] != '-' && s[end] != '"') ++end;
  CableLine out;
  out.local = std::string(s.substr(i, end - i));
  i = end;
  while (i < s.size() && is_blank(s[i])) ++i;
  if (out.local.empty() || i >= s.size() || s[i] != '-') return unknown();
  const std::size_t gt = s.find('>', i);
  if (gt == std::string_view::npos) return unknown();
  const std::string_view arrow = s.substr(i, gt - i + 1);
  for (char c : arrow) {
    if (is_blank(c) || c == '"') return unknown();
  }
  OF_TRY(check_arrow(arrow, line_no));
  OF_ASSIGN(auto words, topo_words(s.substr(gt + 1), line_no, false));
  if (words.size() != 3) return unknown();
  out.remote_type = std::move(words[0].text);
  out.remote_name = std::move(words[1].text);
  out.remote_port = std::move(words[2].text);
  return out;
}

}  // namespace

Result<Topology> Topology::parse(std::string_view text) {
  Topology topo;
  std::map<std::string, int> sections;  // system name -> its section's header line
  std::map<Port, int> declared;         // local ports written in some section -> line
  std::string current;                  // the open section's system ("" between sections)
  int line_no = 0;
  std::istringstream in{std::string(text)};
  std::string raw;
  while (std::getline(in, raw)) {
    ++line_no;
    if (raw.ends_with('\r')) raw.pop_back();  // a file written on Windows
    const auto hash = comment_start(raw);
    const std::string_view body = std::string_view(raw).substr(0, hash);
    if (body.find_first_not_of(" \t\r\v\f") == std::string_view::npos) {
      if (hash == std::string::npos) current.clear();  // a blank line ends a section; a comment does not
      continue;
    }
    if (current.empty()) {  // a section header: TYPE NAME [CFG: ...]
      OF_ASSIGN(auto words, topo_words(body, line_no, true));
      const bool cfg = words.size() > 2 && !words[2].quoted && words[2].text.starts_with("CFG:");
      if (words.size() < 2 || words.size() > 3 || (words.size() == 3 && !cfg) ||
          (!words[1].quoted && words[1].text.find("->") != std::string::npos) ||
          (!words[0].quoted && words[0].text.find("->") != std::string::npos)) {
        const bool cable = body.find("->") != std::string_view::npos;
        return at_line(line_no, std::string("unknown syntax (expected 'SYSTEM-TYPE SYSTEM-NAME [CFG: ...]'") +
                                    (cable ? "; a cable line must follow its system's header line" : "") + "): " + raw);
      }
      const std::string& name = words[1].text;
      if (const auto it = sections.find(name); it != sections.end())
        return at_line(line_no, "system " + name + " has a second section (first on line " +
                                    std::to_string(it->second) + ")");
      if (auto added = topo.add_system(words[0].text, name, line_no); !added)
        return at_line(line_no, added.error().message());
      if (cfg) {  // kept verbatim (board modules of modular systems; not used here)
        for (auto& s : topo.systems_) {
          if (s.name == name) s.cfg = words[2].text;
        }
      }
      sections.emplace(name, line_no);
      current = name;
      continue;
    }
    OF_ASSIGN(const CableLine cable, cable_line(body, line_no, raw));
    const auto local = parse_port_name(cable.local);
    const auto remote = parse_port_name(cable.remote_port);
    if (!local || !remote)
      return at_line(line_no, "unknown port name (expected P1, P2, ...): " + (local ? cable.remote_port : cable.local));
    const Port a{current, *local};
    const Port b{cable.remote_name, *remote};
    // Sections are unique per system, so a local port seen before was seen in this section.
    if (const auto it = declared.find(a); it != declared.end()) {
      return at_line(line_no, "port " + cable.local + " of " + current + " declared twice (first on line " +
                                  std::to_string(it->second) + ")");
    }
    declared.emplace(a, line_no);
    if (auto added = topo.add_system(cable.remote_type, cable.remote_name, line_no); !added)
      return at_line(line_no, added.error().message());
    const auto peer_a = topo.peer(a);
    const auto peer_b = topo.peer(b);
    if (peer_a && *peer_a == b) continue;  // the reverse line of a cable already declared
    if (peer_a || peer_b) {
      const Port& bound = peer_a ? a : b;
      const Port other = peer_a ? *peer_a : *peer_b;
      const Cable* c = topo.find_cable(bound);
      return at_line(line_no, current + " " + cable.local + " -> " + cable.remote_name + " " + cable.remote_port +
                                  " contradicts line " + std::to_string(c->line) + " (" + bound.system + " " +
                                  port_name(bound.port) + " is cabled to " + other.system + " " +
                                  port_name(other.port) + ")");
    }
    if (auto added = topo.add_cable(a, b, line_no); !added) return at_line(line_no, added.error().message());
  }
  return topo;
}

}  // namespace openflint
