// SystemNameOptions: the command-line options by which every fabric tool takes the administrator's names (name map, topology file).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "fabric/SystemNaming.h"

namespace openflint::fabriccli {

struct SystemNameOptionSet {
  bool topology = true;     // -t,--topology FILE
  bool hosts_alias = true;  // --hosts FILE as another name for --names (ibfwmgr's --hosts is its bus servers)
};

// Adds -i,--ca CA and --port N, the local port a fabric tool sweeps and sends MADs from (empty/0:
// the first CA, its first active port). `short_ca`: also -i (ibfwmgr's -i is its image).
void add_local_port_options(CLI::App& app, std::string& ca, int& port, bool short_ca = true);

// Adds --names FILE (and --hosts, -t FILE as `set` says) to `app`, filling `files`.
void add_system_name_options(CLI::App& app, SystemNamingFiles& files, SystemNameOptionSet set = {});

}  // namespace openflint::fabriccli
