// RemoteListing: L on one connection, then one connection per device (the server opens one device per connection).
#include "fwops/access/RemoteListing.h"

#include "fwops/DeviceQuery.h"
#include "image/NodeGuid.h"
#include "mtcr/remote/BusDeviceList.h"
#include "mtcr/remote/RemoteHostConnection.h"

namespace openflint {
namespace {

void query_flash(Device& device, RemoteDeviceStatus& out) {
  auto image = listed_flash_image(device);
  if (!image) {
    out.error = image.error().message();
    return;
  }
  out.flash = *image;
  out.node_guid = node_guid(*image);
}

}  // namespace

std::string remote_device_name(const RemoteHost& host, const std::string& device) {
  if (host.transport == RemoteTransport::Ssh) return to_string(host) + "/" + device;
  return to_string(RemoteDeviceName{host, device});
}

Result<Device> open_host_device(const RemoteHost& host, const std::string& device, const DeviceOpenOptions& options) {
  return open_remote_device(remote_device_name(host, device), RemoteDeviceName{host, device}, options);
}

RemoteHostStatus list_remote_host(const RemoteHost& host, const DeviceOpenOptions& options) {
  RemoteHostStatus out;
  out.host = host;
  std::vector<std::string> listed;
  {
    auto connection = connect_remote_host(host, {}, options.remote_timeout);
    if (!connection) {
      out.error = connection.error().message();
      return out;
    }
    auto names = list_bus_devices(*connection, options.remote_timeout);
    if (!names) {
      out.error = "listing its devices: " + names.error().message();
      return out;
    }
    listed = std::move(*names);
  }  // closed before the opens: a server may serve one connection at a time
  for (const auto& device : listed) {
    RemoteDeviceStatus status;
    status.remote = RemoteDeviceName{host, device};
    status.name = remote_device_name(host, device);
    auto opened = open_host_device(host, device, options);
    if (!opened) {
      status.error = opened.error().message();
    } else {
      status.info = &opened->info();
      query_flash(*opened, status);
    }
    out.devices.push_back(std::move(status));
  }
  return out;
}

}  // namespace openflint
