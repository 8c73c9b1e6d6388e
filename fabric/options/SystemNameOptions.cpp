// SystemNameOptions: one spelling and one help text for the name, hosts and local-port options of ibls, ibmon, ibcon and ibfwmgr.
#include "fabric/options/SystemNameOptions.h"

namespace openflint::fabriccli {

void add_system_name_options(CLI::App& app, SystemNamingFiles& files, SystemNameOptionSet set) {
  const char* names_help =
      "name map: 'NAME GUID [WHERE]' per line (WHERE: device or port within the system); names nodes before "
      "their NodeDescription";
  app.add_option("--names", files.names, names_help);
  if (set.topology)
    app.add_option("-t,--topology", files.topology, "topology file (IBDM): system types, and names the check uses");
}

void add_local_port_options(CLI::App& app, std::string& ca, int& port, bool short_ca) {
  app.add_option(short_ca ? "-C,--ca" : "--ca", ca, "local CA (umad device) (default: the first)");
  app.add_option("--port", port, "local port (default: the first active)");
}

CLI::Option* add_hosts_option(CLI::App& app, std::string& hosts_file) {
  return app.add_option("--hosts", hosts_file,
                        "hosts whose bus servers (mst server) reach fabric devices out-of-band, one HOST[:PORT] or "
                        "ssh:[USER@]HOST[:PORT] per line; the nodes they serve are read through them, the rest "
                        "in-band (the name map is --names)");
}

}  // namespace openflint::fabriccli
