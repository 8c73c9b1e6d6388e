// BusDeviceList: the L exchange, bounded and strict about every name.
#include "mtcr/remote/BusDeviceList.h"

#include <algorithm>

#include "mtcr/remote/BusProtocol.h"

namespace openflint {
namespace {

bool printable_without_spaces(const std::string& name) {
  return std::all_of(name.begin(), name.end(), [](char c) { return c > ' ' && c < 0x7f; });
}

}  // namespace

Result<std::vector<std::string>> list_bus_devices(BusConnection& connection, std::chrono::milliseconds timeout) {
  OF_TRY(connection.send(format_bus_request(bus_request(BusCommand::List))));
  OF_ASSIGN(const std::string count_reply, connection.receive_reply(kBusMaxReplyBytes, timeout));
  OF_ASSIGN(const std::uint32_t count, parse_read_reply(count_reply));
  if (count > kBusMaxListedDevices)
    return make_error(ErrorCode::Io, "the server lists " + std::to_string(count) + " devices (at most " +
                                         std::to_string(kBusMaxListedDevices) + " accepted)");
  std::vector<std::string> names;
  names.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    OF_ASSIGN_CTX(std::string name, connection.receive_reply(kBusMaxDeviceNameBytes + 1, timeout),
                  "device name " + std::to_string(i + 1) + " of " + std::to_string(count));
    if (name.empty() || name.size() > kBusMaxDeviceNameBytes || !printable_without_spaces(name))
      return make_error(ErrorCode::Io, "device name " + std::to_string(i + 1) + " of " + std::to_string(count) +
                                           " is empty, too long or not printable without spaces");
    names.push_back(std::move(name));
  }
  return names;
}

}  // namespace openflint
