// TopologyFabricFiles: what `simfabric up --topology --firmware` tells its clients, as the tests
// read it: D/nodes.txt (one line per node) and the socket named in its "up" line.
#pragma once

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/TestSupport.h"

namespace openflint::test {

// One line of D/nodes.txt.
struct TopologyNode {
  std::string name;
  std::string model;
  std::string lid;   // "lid-N"
  std::string guid;  // "0x" and 16 hex digits
};

inline std::vector<TopologyNode> topology_nodes(const std::filesystem::path& nodes_txt) {
  std::vector<TopologyNode> nodes;
  std::istringstream in(read_text(nodes_txt));
  for (std::string line; std::getline(in, line);) {
    std::istringstream f(line);
    TopologyNode n;
    if (f >> n.name >> n.model >> n.lid >> n.guid) nodes.push_back(n);
  }
  return nodes;
}

// The fabric's socket name from its "up" line; empty when not printed.
inline std::string fabric_socket(const std::string& up_log) {
  std::smatch m;
  return std::regex_search(up_log, m, std::regex(R"(\(socket (\S+)\))")) ? std::string(m[1]) : "";
}

}  // namespace openflint::test
