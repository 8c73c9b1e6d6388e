// NameTransport: name:NODE, a system name the ibadm name server resolves to a device name another row opens.
#include <string>

#include "fwops/Device.h"
#include "fwops/transports/Transports.h"
#include "mtcr/remote/NameClient.h"

namespace openflint {
namespace {

constexpr std::string_view kNamePrefix = "name:";

}  // namespace

bool transports::name_matches(std::string_view name, const DeviceOpenOptions& /*options*/) {
  return name.starts_with(kNamePrefix);
}

// Not a transport of its own: the name server says which device the node is (HOST:PORT,DEVICE
// out-of-band, lid-N in-band), and that name is opened through the table like any other.
Result<Device> transports::open_name(std::string_view name, const DeviceOpenOptions& options) {
  const std::string node(name.substr(kNamePrefix.size()));
  const std::string what(name);
  OF_ASSIGN(const auto location, find_name_server());
  if (!location)
    return make_error(ErrorCode::NotSupported,
                      what + ": no name server is configured (set OPENFLINT_NAME_SERVER=HOST:PORT, or name_server_address "
                             "in /etc/ibadm.conf or the file OPENFLINT_IBADM_CONF names; docs/ibadm.md)");
  auto client = NameClient::connect(location->server, options.remote_timeout);
  if (!client) return make_error(std::move(client).error().with_context(what + " (from " + location->source + ")"));
  auto entry = client->lookup(node);
  if (!entry) return make_error(std::move(entry).error().with_context(what));
  if (entry->device.starts_with(kNamePrefix))
    return make_error(ErrorCode::Io, what + ": the name server answered another name (" + entry->device + ")");
  auto device = open_device(entry->device, options);
  if (!device) return make_error(std::move(device).error().with_context(what + " (" + entry->device + ")"));
  return device;
}

}  // namespace openflint
