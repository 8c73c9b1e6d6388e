// SystemNameOptions: one spelling and one help text for the name options of ibls, ibmon, ibcon and ibfwmgr.
#include "fabric/options/SystemNameOptions.h"

namespace openflint::fabriccli {

void add_system_name_options(CLI::App& app, SystemNamingFiles& files, SystemNameOptionSet set) {
  const char* names_help =
      "name map: 'NAME GUID [WHERE]' per line (WHERE: device or port within the system); names nodes before "
      "their NodeDescription";
  app.add_option(set.hosts_alias ? "--names,--hosts" : "--names", files.names, names_help);
  if (set.topology)
    app.add_option("-t,--topology", files.topology, "topology file (IBDM): system types, and names the check uses");
}

void add_local_port_options(CLI::App& app, std::string& ca, int& port, bool short_ca) {
  app.add_option(short_ca ? "-i,--ca" : "--ca", ca, "local CA (umad device) (default: the first)");
  app.add_option("--port", port, "local port (default: the first active)");
}

}  // namespace openflint::fabriccli
