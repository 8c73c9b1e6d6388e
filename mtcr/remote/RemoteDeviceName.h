// RemoteDeviceName: remote device names, MFT's HOST:PORT,DEVICE (an mstmtserver) and ssh:[USER@]HOST[:PORT]/DEVICE.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/Result.h"
#include "mtcr/remote/RemoteHost.h"

namespace openflint {

// The grammar of MFT and of mstflint's newer client (mft-internals.md §1.1): everything up to the
// last '/' is dropped (a local directory such as /dev/mst/), then HOST is the text before the
// first ':', PORT the decimal number (1..65535) between that ':' and the first ',', and DEVICE
// the rest, where every '@' stands for a '/' ("@dev@mst@mt4115_pciconf0" is
// /dev/mst/mt4115_pciconf0). DEVICE may itself hold ':' ("host:23108,03:00.0").
// Extension (not in MFT): an IPv6 host in brackets, "[::1]:23108,DEVICE"; the brackets are not
// part of `host`. An unbracketed IPv6 literal cannot be told from the delimiters.
// Our ssh form (not in MFT): "ssh:[USER@]HOST[:PORT]/DEVICE" ("ssh:root@[::1]:2222/sim:/tmp/dev"),
// recognised by its "ssh:" prefix before anything is dropped. The host part (RemoteHost's ssh
// grammar) ends at the first '/'; DEVICE is everything after it, kept literally ('@' is not '/').
struct RemoteDeviceName {
  RemoteHost server;   // Tcp: host without brackets, port 1..65535; Ssh: see RemoteHost
  std::string device;  // the name on the server's host, with '/' restored
};

// nullopt when `name` is not a remote name at all (no ',' after a ':' in its last path component),
// so the caller tries the other name forms: a BDF "0000:af:00.0" has no ',', "lid-4,mlx5_0,1" no
// ':' before its ','. InvalidArgument with the reason when it has the shape of one but is
// malformed: an empty host, a port that is not a number or outside 1..65535, an empty device;
// for "ssh:..." also a missing "/DEVICE" and whatever parse_remote_host refuses.
[[nodiscard]] Result<std::optional<RemoteDeviceName>> parse_remote_device_name(std::string_view name);

// "HOST:PORT,DEVICE" with '/' written as '@' (and an IPv6 host in brackets), or
// "ssh:[USER@]HOST[:PORT]/DEVICE": what parse_remote_device_name reads back as the same name.
[[nodiscard]] std::string to_string(const RemoteDeviceName& name);

}  // namespace openflint
