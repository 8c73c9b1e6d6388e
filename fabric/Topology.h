// Topology: the fabric as its administrators name it (IBDM topology file): systems and the cables between their ports.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"

namespace openflint {

class Topology {
 public:
  struct System {
    std::string type;  // system type, e.g. a catalog part number ("MT52000")
    std::string name;  // e.g. "leaf-1"
    std::string cfg;   // the section header's "CFG: ..." text, kept verbatim
    int line = 0;      // where first named (section header or a remote reference)
  };
  // One end of a cable: port N of a system (written "PN" in the file).
  struct Port {
    std::string system;
    int port = 0;
    friend bool operator==(const Port&, const Port&) = default;
    friend auto operator<=>(const Port&, const Port&) = default;
  };
  struct Cable {
    Port a;
    Port b;
    int line = 0;  // the line that declared it first
  };

  // Parses the file's text. Errors (InvalidArgument) name the line: unknown syntax, a port
  // declared twice, a connection that contradicts an earlier one, a system with two types.
  [[nodiscard]] static Result<Topology> parse(std::string_view text);

  // Adds a system (a type clash with an earlier declaration is InvalidArgument).
  [[nodiscard]] Result<void> add_system(const std::string& type, const std::string& name, int line = 0);
  // Adds a cable between two declared systems; a port already cabled is InvalidArgument.
  [[nodiscard]] Result<void> add_cable(const Port& a, const Port& b, int line = 0);
  // Removes the cable at `port` (either end); false when there is none.
  bool remove_cable(const Port& port);

  [[nodiscard]] const std::vector<System>& systems() const { return systems_; }
  [[nodiscard]] const std::vector<Cable>& cables() const { return cables_; }
  [[nodiscard]] const System* find_system(std::string_view name) const;
  // The port cabled to `port`, if any.
  [[nodiscard]] std::optional<Port> peer(const Port& port) const;

  // The file text: one section per system that has cables (in declaration order), each cable
  // written from both ends, so that parse(to_text()) gives the same systems and cables.
  [[nodiscard]] std::string to_text() const;

 private:
  [[nodiscard]] const Cable* find_cable(const Port& port) const;

  std::vector<System> systems_;
  std::vector<Cable> cables_;
};

// "P12" -> 12; nullopt for anything else.
[[nodiscard]] std::optional<int> parse_port_name(std::string_view text);
[[nodiscard]] inline std::string port_name(int port) { return "P" + std::to_string(port); }

}  // namespace openflint
