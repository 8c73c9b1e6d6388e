// RemoteDeviceName: MFT's remote device names, HOST:PORT,DEVICE (a device served by an mstmtserver).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/Result.h"
#include "mtcr/RemoteHost.h"

namespace openflint {

// The grammar of MFT and of mstflint's newer client (mft-internals.md §1.1): everything up to the
// last '/' is dropped (a local directory such as /dev/mst/), then HOST is the text before the
// first ':', PORT the decimal number (1..65535) between that ':' and the first ',', and DEVICE
// the rest, where every '@' stands for a '/' ("@dev@mst@mt4115_pciconf0" is
// /dev/mst/mt4115_pciconf0). DEVICE may itself hold ':' ("host:23108,03:00.0").
// Extension (not in MFT): an IPv6 host in brackets, "[::1]:23108,DEVICE"; the brackets are not
// part of `host`. An unbracketed IPv6 literal cannot be told from the delimiters.
struct RemoteDeviceName {
  RemoteHost server;   // transport Tcp; host without brackets, port 1..65535
  std::string device;  // the name on the server's host, with '/' restored
};

// nullopt when `name` is not a remote name at all (no ',' after a ':' in its last path component),
// so the caller tries the other name forms: a BDF "0000:af:00.0" has no ',', "lid-4,mlx5_0,1" no
// ':' before its ','. InvalidArgument with the reason when it has the shape of one but is
// malformed: an empty host, a port that is not a number or outside 1..65535, an empty device.
[[nodiscard]] Result<std::optional<RemoteDeviceName>> parse_remote_device_name(std::string_view name);

// "HOST:PORT,DEVICE" with '/' written as '@' (and an IPv6 host in brackets): what
// parse_remote_device_name reads back as the same name.
[[nodiscard]] std::string to_string(const RemoteDeviceName& name);

}  // namespace openflint
