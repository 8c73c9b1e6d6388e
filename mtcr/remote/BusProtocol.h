// BusProtocol: the legacy MFT/mstflint bus-server protocol (mstmtserver 1.4) as data: requests and replies, no I/O.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"

namespace openflint {

// mft-internals.md §1.2. Every message is ASCII framed by one NUL (BusConnection adds and strips
// it); a request is a command letter, then space-separated arguments; numbers read like C
// strtoul(..., 0): decimal, 0x hex, or leading-0 octal.
inline constexpr std::string_view kBusProtocolVersion = "1.4";
inline constexpr std::uint16_t kBusDefaultPort = 23108;
// The server's request buffer (BUF_LEN = 128*4*3), NUL included: the bound of every request of
// the legacy commands.
inline constexpr std::size_t kBusMaxRequestBytes = 1536;
// openflint's G (access register) carries at most this many register bytes each way: the ICMD
// mailbox's 0x340 less its TLV headers, rounded up to a power of two.
inline constexpr std::size_t kBusMaxRegisterBytes = 1024;
inline constexpr std::size_t kBusMaxRegisterDwords = kBusMaxRegisterBytes / 4;
// The bound of a G request, NUL included: "G 0xffff 2 1024" and 256 x " 0xffffffff" is 2831
// characters. Our server reads requests up to this size; every other command keeps the legacy
// bound above.
inline constexpr std::size_t kBusMaxRegisterRequestBytes = 3072;
// Largest reply we accept: a 512-byte B reply is "O" + 128 x " 0x%08x" = 1409 characters; a G
// reply "O 0x7f" + 256 x " 0xffffffff" is 2822.
inline constexpr std::size_t kBusMaxReplyBytes = 3072;
// Pipelining (RemoteBusAccess::write_then_read, write_sequence): at most this many requests are
// sent before their replies are read. Their replies (at most 16 x kBusMaxReplyBytes = 48 KiB,
// a gateway transaction's a few hundred bytes) fit the peer's socket buffers, so neither side
// blocks in send while the other does.
inline constexpr std::size_t kBusMaxPipelinedRequests = 16;
// B and U move at most this many bytes (the server's block buffer).
inline constexpr std::size_t kBusMaxBlockBytes = 512;
inline constexpr std::size_t kBusMaxBlockDwords = kBusMaxBlockBytes / 4;
// The error text of a command the server does not know (mstflint's MST_UL build: B, U, S, r, w).
inline constexpr std::string_view kBusInvalidCommand = "Invalid command";
// dtype of a new-style O request: MST_TAVOR, what MFT clients send.
inline constexpr std::uint32_t kBusDeviceTypeTavor = 1;
// How our server's "E" replies begin when the answer is "not now" rather than "no": the device
// is held by another tool on the server's host (its lock), or the server already runs as many
// sessions as it allows. The client reads both back as ErrorCode::Busy and may try again.
inline constexpr std::string_view kBusDeviceBusy = "device busy";
inline constexpr std::string_view kBusServerBusy = "server busy";

enum class BusCommand : char {
  Version = 'V',       // V                          -> O 1.4
  List = 'L',          // L                          -> O <n>, then n device names
  Open = 'O',          // O [<dtype>] <device>       -> O <g>
  Close = 'C',         // C                          -> O
  Read = 'R',          // R <offset>                 -> O 0x%08x
  Write = 'W',         // W <offset> <value>         -> O
  ReadBlock = 'B',     // B <offset> <size>          -> O 0x%08x ...
  WriteBlock = 'U',    // U <offset> <size> <dw>...  -> O
  PciChange = 'P',     // P                          -> O
  AddressSpace = 'A',  // A <space>                  -> O
  // openflint only (mstmtserver answers "E Invalid command"): access registers of the running
  // firmware through the served device's register port (docs/remote.md).
  Register = 'G',  // G                                     -> O <max register bytes>
                   // G <reg id> <method> <size> <dw>...    -> O <status> <dw>...
  // openflint only: the safe reset of the opened device (`mst reset`) by the server, when it was
  // started with --allow-reset (docs/remote.md).
  Reset = 'X',  // X <level> 0   -> O <now> <method>           (the plan: what a reset would do)
                // X <level> 1   -> O <now> <ms> <what happened> (the reset)
};

// X's levels (mst reset --level) and the refusal of a server that does not reset.
inline constexpr std::uint8_t kBusResetNow = 3;
inline constexpr std::uint8_t kBusResetArm = 4;
inline constexpr std::string_view kBusResetNotAllowed = "reset not allowed by this server";

// G's methods (the operation TLV's, AccessRegisterTlv::kMethodQuery/kMethodWrite).
inline constexpr std::uint8_t kBusRegisterQuery = 1;
inline constexpr std::uint8_t kBusRegisterWrite = 2;

// One request with the fields its command uses; the others stay zero/empty.
struct BusRequest {
  BusCommand command = BusCommand::Version;
  std::uint32_t offset = 0;  // R W B U: CR-space byte address, dword aligned
  std::uint32_t value = 0;   // W: the dword; A: the address space
  std::uint32_t size = 0;    // B U: bytes, 1..kBusMaxBlockBytes; G: see below
  std::vector<std::uint32_t> data;          // U: ceil(size/4) dwords; G: size/4 dwords
  std::optional<std::uint32_t> device_type;  // O: set for the new style "O <dtype> <device>"
  std::string device;                       // O: the device name (printable, no spaces)
  // G: the register and the method (1 query, 2 write); size is the register bytes (a multiple
  // of 4, 4..kBusMaxRegisterBytes) and data its big-endian dwords. size 0: the bare "G" probe.
  std::uint16_t register_id = 0;
  std::uint8_t method = 0;
  // X: the reset level (3 or 4) and whether to reset (true) or only say what a reset would do.
  std::uint8_t reset_level = 0;
  bool reset_run = false;

  friend bool operator==(const BusRequest&, const BusRequest&) = default;
};

// A request of the dword-and-block commands (R W B U C V ...) with its numeric fields.
[[nodiscard]] inline BusRequest bus_request(BusCommand command, std::uint32_t offset = 0, std::uint32_t value = 0,
                                            std::uint32_t size = 0) {
  BusRequest r;
  r.command = command;
  r.offset = offset;
  r.value = value;
  r.size = size;
  return r;
}

// Whether `device` can be named in an O request: not empty, printable ASCII without spaces, and
// short enough for the request bound. InvalidArgument with the reason otherwise. Clients check a
// name with it before they connect (before an ssh login), so a name the protocol cannot carry
// fails at once.
[[nodiscard]] Result<void> check_bus_device_name(std::string_view device);

// Server side, strict: the exact grammar above with single spaces, bounded sizes and 32-bit
// numbers; anything else (including a NUL or a control character) is an InvalidArgument error
// with a one-line reason.
[[nodiscard]] Result<BusRequest> parse_bus_request(std::string_view text);
// Client side: the text of a request (no NUL); numbers in hex. parse_bus_request reads it back.
[[nodiscard]] std::string format_bus_request(const BusRequest& request);

// Replies.
[[nodiscard]] std::string format_ok(std::string_view payload = {});   // "O" or "O <payload>"
[[nodiscard]] std::string format_error(std::string_view text);        // "E <text>"
[[nodiscard]] std::string format_read_reply(std::uint32_t value);     // "O 0x%08x"
// "O" + " 0x%08x" per whole dword of `size_bytes`; a partial tail is " 0x" + the low
// (size_bytes % 4) bytes of the next dword, two hex digits each (most significant first), as
// mtserver prints the tail bytes of a little-endian buffer. `dwords` holds ceil(size_bytes/4).
[[nodiscard]] std::string format_block_reply(std::span<const std::uint32_t> dwords, std::size_t size_bytes);

// The text after "O" (without its space; empty for a bare "O"). "E <text>" is an error "the
// server answered: <text>": Busy when the text starts with kBusDeviceBusy or kBusServerBusy, Io
// otherwise; anything else an Io error naming the malformed reply.
[[nodiscard]] Result<std::string> parse_ok_reply(std::string_view reply);
// "O <number>" (R's value, O's gateway flag, L's count) -> the number.
[[nodiscard]] Result<std::uint32_t> parse_read_reply(std::string_view reply);
// A B reply for `size_bytes` bytes -> ceil(size_bytes/4) dwords (a partial tail in the low bytes).
[[nodiscard]] Result<std::vector<std::uint32_t>> parse_block_reply(std::string_view reply, std::size_t size_bytes);
// G's answer: the register status (the operation TLV's 7 bits) and the register's dwords.
struct BusRegisterReply {
  std::uint8_t status = 0;
  std::vector<std::uint32_t> data;

  friend bool operator==(const BusRegisterReply&, const BusRegisterReply&) = default;
};
// "O <status> <dw>..." (hex); parse_register_reply reads it back.
[[nodiscard]] std::string format_register_reply(const BusRegisterReply& reply);
// Strict: a status of 7 bits and at most kBusMaxRegisterDwords dwords; "E <text>" and anything
// malformed are Io errors as for the other replies.
[[nodiscard]] Result<BusRegisterReply> parse_register_reply(std::string_view reply);
// Register bytes <-> the dwords G carries: each dword is four bytes, most significant first
// (registers are big-endian, PRM). `bytes` must be a multiple of 4 long.
[[nodiscard]] std::vector<std::uint32_t> register_dwords(std::span<const std::uint8_t> bytes);
[[nodiscard]] std::vector<std::uint8_t> register_bytes(std::span<const std::uint32_t> dwords);

// X's answer. The plan ("O <now> <method>"): whether the reset runs now (level 3) or is only
// armed for the next warm reboot (0), and the server's words for it. The reset ("O <now> <ms>
// <what happened>"): the same flag, how long it took, and what the server did. The text is
// printable ASCII and may hold spaces; "E <why>" is the refusal (a plan blocker, or
// kBusResetNotAllowed) and parses as an Io error naming it.
struct BusResetReply {
  bool resets_now = false;
  std::optional<std::uint32_t> took_ms;  // set in the reset's reply, not in the plan's
  std::string text;

  friend bool operator==(const BusResetReply&, const BusResetReply&) = default;
};
[[nodiscard]] std::string format_reset_reply(const BusResetReply& reply);
[[nodiscard]] Result<BusResetReply> parse_reset_reply(std::string_view reply, bool run);

// Whether `reply` is the server's "E Invalid command".
[[nodiscard]] bool is_invalid_command_reply(std::string_view reply);

}  // namespace openflint
