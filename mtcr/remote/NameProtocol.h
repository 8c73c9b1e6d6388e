// NameProtocol: the ibadm name server's requests and replies (the bus protocol's framing, letters of its own), as data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

// docs/ibadm.md "Name-server protocol". Framing as the bus protocol's (mtcr/remote/BusConnection:
// each message ASCII, ended by one NUL); a request is a letter, then at most one argument after
// one space; replies are "O ..." or "E <why>".
//   V              -> O openflint-names 1
//   N <name>       -> O <entry>             (the node a system name names)
//   Q <guid|lid>   -> O <entry>             (0x + hex digits: a node GUID; decimal: a LID)
//   L              -> O <n>, then n messages "<entry>"
//   R              -> O <n>                 (sweep again; n entries now)
// <entry> = <name> <guid> <lid> <device> <host-device>: the node's system name, its GUID
// ("0x" + 16 hex digits, 0 when not known), its LID (decimal, 0 when not on the swept fabric),
// the device name a tool opens it by (the remote name out-of-band, else lid-N) and the bus
// server's HOST:PORT,DEVICE that serves it ("-" when none).
inline constexpr std::string_view kNameProtocolVersion = "openflint-names 1";
// The name server's port unless configured (the bus server's 23108 + 1).
inline constexpr std::uint16_t kNameServerDefaultPort = 23109;
// Bounds: a request (NUL included), a name, an entry's device name, a reply, the entries listed.
inline constexpr std::size_t kNameMaxRequestBytes = 256;
inline constexpr std::size_t kNameMaxNameBytes = 128;
inline constexpr std::size_t kNameMaxDeviceBytes = 1024;
inline constexpr std::size_t kNameMaxReplyBytes = 4096;
inline constexpr std::size_t kNameMaxEntries = 65536;

// Error texts the server answers with, read back into codes by the client: "E not found: ..."
// is NotFound, "E ambiguous: ..." InvalidArgument; other "E" texts Io.
inline constexpr std::string_view kNameNotFound = "not found";
inline constexpr std::string_view kNameAmbiguous = "ambiguous";

enum class NameCommand : char { Version = 'V', Lookup = 'N', Query = 'Q', List = 'L', Refresh = 'R' };

struct NameRequest {
  NameCommand command = NameCommand::Version;
  std::string name;         // N
  bool by_guid = false;     // Q: the key is a GUID (else a LID)
  std::uint64_t guid = 0;   // Q
  std::uint16_t lid = 0;    // Q

  friend bool operator==(const NameRequest&, const NameRequest&) = default;
};

struct NameEntry {
  std::string name;
  std::uint64_t guid = 0;
  std::uint16_t lid = 0;
  std::string device;  // what to open
  std::string remote;  // HOST:PORT,DEVICE of the serving bus server; empty when none

  friend bool operator==(const NameEntry&, const NameEntry&) = default;
};

[[nodiscard]] inline NameRequest name_request(NameCommand command) {
  NameRequest r;
  r.command = command;
  return r;
}

// Whether `name` can be a system name on the wire: 1..kNameMaxNameBytes printable ASCII
// characters, no blank. InvalidArgument saying why otherwise.
[[nodiscard]] Result<void> check_system_name(std::string_view name);

// Server side, strict: exactly the grammar above (single space, no trailing blank, a GUID of
// 1..16 hex digits after 0x, a LID 1..65535 in decimal without leading zeros, a name
// check_system_name accepts, at most kNameMaxRequestBytes); InvalidArgument with a reason otherwise.
[[nodiscard]] Result<NameRequest> parse_name_request(std::string_view text);
// Client side: what parse_name_request reads back as `request`.
[[nodiscard]] std::string format_name_request(const NameRequest& request);

// "<name> <guid> <lid> <device> <host-device>" and back (strict; Io for a reply that makes no
// sense: the server misbehaved).
[[nodiscard]] std::string format_name_entry(const NameEntry& entry);
[[nodiscard]] Result<NameEntry> parse_name_entry(std::string_view text);

}  // namespace openflint
