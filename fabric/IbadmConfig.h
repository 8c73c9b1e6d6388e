// IbadmConfig: /etc/ibadm.conf, which services this host runs for `ibadm start` and where their files are (docs/ibadm.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "mtcr/remote/NameProtocol.h"
#include "mtcr/remote/RemoteHost.h"

namespace openflint {

inline constexpr std::string_view kDefaultIbadmConfig = "/etc/ibadm.conf";
inline constexpr std::string_view kDefaultIbadmHosts = "/etc/ibadm.hosts";
inline constexpr std::string_view kDefaultIbadmRunDir = "/run/openflint-ibadm";

// The in-band server's default port: the bus server's + 2 (the name server's is + 1).
inline constexpr std::uint16_t kDefaultInbandServerPort = 23110;

// Every key of the file (docs/ibadm.md has the table); the defaults are the members' values.
struct IbadmConfig {
  std::string source;  // the file it was read from (errors and `ibadm status` name it)

  // The bus server: `mst server` serving this host's devices.
  bool bus_server = false;
  std::string bus_server_listen = "127.0.0.1";
  std::uint16_t bus_server_port = kDefaultBusPort;  // 0: any free port (ibadm records the bound one)
  std::vector<std::string> bus_server_allow;         // CIDRs (mst server --allow)
  std::vector<std::string> bus_server_devices;       // empty: the PCI functions `mst status` lists
  bool bus_server_read_only = false;
  std::string sysfs;  // mst server --sysfs; empty: its default

  // The in-band bus server: `mst server --inband`, serving every node of the fabric this host's
  // HCA sweeps (lid-N) to tools on other hosts (the seeds' in-band server).
  bool inband_server = false;
  std::string inband_server_listen = "127.0.0.1";
  std::uint16_t inband_server_port = kDefaultInbandServerPort;  // 0: any free port
  std::vector<std::string> inband_server_allow;                 // CIDRs (mst server --allow)

  // The name server: `ibadm name-server`.
  bool name_server = false;
  std::string name_server_listen = "127.0.0.1";
  std::uint16_t name_server_port = kNameServerDefaultPort;  // 0: any free port
  std::optional<RemoteHost> name_server_address;   // where clients find it (name_server_address_of)
  unsigned name_server_refresh_s = 0;              // sweep again every N s; 0: only on an R request
  bool sweep = true;                               // whether the name server sweeps the fabric in-band
  std::string hosts = std::string(kDefaultIbadmHosts);  // bus servers the name server asks
  bool hosts_given = false;  // the default hosts file may be absent; a given one must exist
  std::string names;     // name map (fabric/SystemNameMap.h)
  std::string topology;  // IBDM topology file (fabric/Topology.h)
  std::string ca;        // the local port the sweep uses (empty/0: the first active)
  int port = 0;

  std::string run_dir = std::string(kDefaultIbadmRunDir);  // pid files, logs, recorded addresses
};

// Strict: every line KEY = VALUE (core/KeyValueText.h), every key one of the above, yes/no for the
// switches, ports 0..65535, a key other than bus_server_allow/bus_server_devices/
// inband_server_allow given once.
// Relative paths (hosts, names, topology, run_dir, sysfs) are taken from `source`'s directory.
// InvalidArgument "SOURCE:LINE: why" for the first line that is wrong.
[[nodiscard]] Result<IbadmConfig> parse_ibadm_config(std::string_view text, std::string_view source);
// The file (fabric/ConfigText.h bounds); NotFound/Io as reading it fails.
[[nodiscard]] Result<IbadmConfig> read_ibadm_config(const std::string& path);
// `given` when not empty, else $OPENFLINT_IBADM_CONF, else /etc/ibadm.conf.
[[nodiscard]] std::string ibadm_config_path(const std::string& given);

}  // namespace openflint
