// SystemNameOptions: the command-line options by which every fabric tool takes the administrator's names (name map, topology file), its bus-server hosts and its local port.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "fabric/SystemNaming.h"

namespace openflint::fabriccli {

struct SystemNameOptionSet {
  bool topology = true;  // -t,--topology FILE (--hosts is never a name map: add_hosts_option)
};

// Adds -C,--ca CA and --port N, the local port a fabric tool sweeps and sends MADs from (empty/0:
// the first CA, its first active port). `short_ca`: also -C (infiniband-diags' spelling).
void add_local_port_options(CLI::App& app, std::string& ca, int& port, bool short_ca = true);

// Adds --names FILE (and -t FILE as `set` says) to `app`, filling `files`.
void add_system_name_options(CLI::App& app, SystemNamingFiles& files, SystemNameOptionSet set = {});

// Adds --hosts FILE, the hosts whose bus servers (mst server) reach fabric devices out-of-band
// (fabric/HostsFile.h), with one help text for every fabric tool.
CLI::Option* add_hosts_option(CLI::App& app, std::string& hosts_file);

}  // namespace openflint::fabriccli
