// Topology: the model (systems, cables) and its file text.
#include "fabric/Topology.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace openflint {

namespace {
// A type or name as the file writes it: "quoted" when a bare word would not read back the same
// (blanks, a comment sign, an arrow, or empty).
std::string topology_word(const std::string& word) {
  const bool bare = !word.empty() && word.find_first_of(" \t\r\v\f#\"") == std::string::npos &&
                    word.find("->") == std::string::npos;
  return bare ? word : "\"" + word + "\"";
}
}  // namespace

std::optional<int> parse_port_name(std::string_view text) {
  if (text.size() < 2 || (text[0] != 'P' && text[0] != 'p')) return std::nullopt;
  int n = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data() + 1, end, n);
  if (ec != std::errc{} || ptr != end || n <= 0 || n > 255) return std::nullopt;
  return n;
}

const Topology::System* Topology::find_system(std::string_view name) const {
  const auto it = std::find_if(systems_.begin(), systems_.end(), [&](const System& s) { return s.name == name; });
  return it == systems_.end() ? nullptr : &*it;
}

Result<void> Topology::add_system(const std::string& type, const std::string& name, int line) {
  if (const System* s = find_system(name)) {
    if (s->type == type) return {};
    return make_error(ErrorCode::InvalidArgument, "system " + name + " has type " + type + " here but " + s->type +
                                                      (s->line > 0 ? " on line " + std::to_string(s->line) : ""));
  }
  systems_.push_back(System{type, name, {}, line});
  return {};
}

const Topology::Cable* Topology::find_cable(const Port& port) const {
  const auto it = std::find_if(cables_.begin(), cables_.end(),
                               [&](const Cable& c) { return c.a == port || c.b == port; });
  return it == cables_.end() ? nullptr : &*it;
}

std::optional<Topology::Port> Topology::peer(const Port& port) const {
  const Cable* c = find_cable(port);
  if (c == nullptr) return std::nullopt;
  return c->a == port ? c->b : c->a;
}

Result<void> Topology::add_cable(const Port& a, const Port& b, int line) {
  if (find_system(a.system) == nullptr || find_system(b.system) == nullptr)
    return make_error(ErrorCode::InvalidArgument, "a cable names an undeclared system");
  if (a == b) return make_error(ErrorCode::InvalidArgument, "port " + port_name(a.port) + " of " + a.system +
                                                                 " is cabled to itself");
  for (const Port& end : {a, b}) {
    if (const Cable* c = find_cable(end)) {
      const Port other = c->a == end ? c->b : c->a;
      return make_error(ErrorCode::InvalidArgument,
                        end.system + " " + port_name(end.port) + " is already cabled to " + other.system + " " +
                            port_name(other.port) + (c->line > 0 ? " (line " + std::to_string(c->line) + ")" : ""));
    }
  }
  cables_.push_back(Cable{a, b, line});
  return {};
}

bool Topology::remove_cable(const Port& port) {
  const auto it = std::find_if(cables_.begin(), cables_.end(),
                               [&](const Cable& c) { return c.a == port || c.b == port; });
  if (it == cables_.end()) return false;
  cables_.erase(it);
  return true;
}

std::string Topology::to_text() const {
  std::ostringstream out;
  bool first = true;
  for (const System& s : systems_) {
    std::vector<std::pair<Port, Port>> ends;  // local, remote
    for (const Cable& c : cables_) {
      if (c.a.system == s.name) ends.emplace_back(c.a, c.b);
      if (c.b.system == s.name) ends.emplace_back(c.b, c.a);
    }
    if (ends.empty()) continue;
    std::sort(ends.begin(), ends.end());
    if (!first) out << '\n';
    first = false;
    out << topology_word(s.type) << ' ' << topology_word(s.name);
    if (!s.cfg.empty()) out << ' ' << s.cfg;
    out << '\n';
    for (const auto& [local, remote] : ends) {
      out << port_name(local.port) << " -> " << topology_word(find_system(remote.system)->type) << ' '
          << topology_word(remote.system) << ' ' << port_name(remote.port) << '\n';
    }
  }
  return out.str();
}

}  // namespace openflint
