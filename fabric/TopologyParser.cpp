// Topology::parse: the IBDM topology file (docs/fabric-topology.md) line by line, errors with line numbers.
#include <map>
#include <set>
#include <sstream>

#include "fabric/Topology.h"

namespace openflint {
namespace {

std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> words;
  std::istringstream in{std::string(line)};
  std::string w;
  while (in >> w) words.push_back(w);
  return words;
}

auto at_line(int line, const std::string& text) {
  return make_error(ErrorCode::InvalidArgument, "line " + std::to_string(line) + ": " + text);
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
    const auto hash = raw.find('#');
    const auto words = split_words(std::string_view(raw).substr(0, hash));
    if (words.empty()) {
      if (hash == std::string::npos) current.clear();  // a blank line ends a section; a comment does not
      continue;
    }
    if (current.empty()) {  // a section header: TYPE NAME [CFG: ...]
      if (words.size() < 2 || words[1] == "->" || (words.size() > 2 && !words[2].starts_with("CFG:")))
        return at_line(line_no, "unknown syntax (expected 'SYSTEM-TYPE SYSTEM-NAME [CFG: ...]'): " + raw);
      if (const auto it = sections.find(words[1]); it != sections.end())
        return at_line(line_no, "system " + words[1] + " has a second section (first on line " +
                                    std::to_string(it->second) + ")");
      if (auto added = topo.add_system(words[0], words[1], line_no); !added)
        return at_line(line_no, added.error().message());
      if (words.size() > 2) {  // kept verbatim (board modules of modular systems; not used here)
        std::string cfg = raw.substr(raw.find("CFG:"), hash == std::string::npos ? std::string::npos
                                                                                  : hash - raw.find("CFG:"));
        while (cfg.ends_with(' ') || cfg.ends_with('\t')) cfg.pop_back();
        for (auto& s : topo.systems_) {
          if (s.name == words[1]) s.cfg = cfg;
        }
      }
      sections.emplace(words[1], line_no);
      current = words[1];
      continue;
    }
    // A connection: LOCAL-PORT -> REM-SYS-TYPE REM-SYS-NAME REM-PORT
    if (words.size() != 5 || words[1] != "->")
      return at_line(line_no, "unknown syntax (expected 'PORT -> SYSTEM-TYPE SYSTEM-NAME PORT'): " + raw);
    const auto local = parse_port_name(words[0]);
    const auto remote = parse_port_name(words[4]);
    if (!local || !remote)
      return at_line(line_no, "unknown port name (expected P1, P2, ...): " + (local ? words[4] : words[0]));
    const Port a{current, *local};
    const Port b{words[3], *remote};
    // Sections are unique per system, so a local port seen before was seen in this section.
    if (const auto it = declared.find(a); it != declared.end()) {
      return at_line(line_no, "port " + words[0] + " of " + current + " declared twice (first on line " +
                                  std::to_string(it->second) + ")");
    }
    declared.emplace(a, line_no);
    if (auto added = topo.add_system(words[2], words[3], line_no); !added)
      return at_line(line_no, added.error().message());
    const auto peer_a = topo.peer(a);
    const auto peer_b = topo.peer(b);
    if (peer_a && *peer_a == b) continue;  // the reverse line of a cable already declared
    if (peer_a || peer_b) {
      const Port& bound = peer_a ? a : b;
      const Port other = peer_a ? *peer_a : *peer_b;
      const Cable* c = topo.find_cable(bound);
      return at_line(line_no, current + " " + words[0] + " -> " + words[3] + " " + words[4] + " contradicts line " +
                                  std::to_string(c->line) + " (" + bound.system + " " + port_name(bound.port) +
                                  " is cabled to " + other.system + " " + port_name(other.port) + ")");
    }
    if (auto added = topo.add_cable(a, b, line_no); !added) return at_line(line_no, added.error().message());
  }
  return topo;
}

}  // namespace openflint
