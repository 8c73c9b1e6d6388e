// SystemNameOptions: the command-line options by which every fabric tool takes the administrator's names (name map, topology file).
#pragma once

#include <CLI/CLI.hpp>

#include "fabric/SystemNaming.h"

namespace openflint::fabriccli {

struct SystemNameOptionSet {
  bool topology = true;     // -t,--topology FILE
  bool hosts_alias = true;  // --hosts FILE as another name for --names (ibfwmgr's --hosts is its bus servers)
};

// Adds --names FILE (and --hosts, -t FILE as `set` says) to `app`, filling `files`.
void add_system_name_options(CLI::App& app, SystemNamingFiles& files, SystemNameOptionSet set = {});

}  // namespace openflint::fabriccli
