// BusProtocol: parsing and formatting of mstmtserver 1.4 requests and replies (mft-internals.md §1.2).
#include "mtcr/remote/BusProtocol.h"

#include <limits>

#include "core/HexString.h"

namespace openflint {
namespace {

// Longest piece of a peer's text quoted in a message.
constexpr std::size_t kQuoteLimit = 40;
constexpr std::uint64_t kMaxDword = std::numeric_limits<std::uint32_t>::max();

// A peer's text for a one-line message: bounded, control characters as '?'.
std::string quote(std::string_view text) {
  std::string out = "'";
  for (const char c : text.substr(0, kQuoteLimit)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (text.size() > kQuoteLimit) out += "...";
  return out + "'";
}

Unexpected invalid(std::string message) { return make_error(ErrorCode::InvalidArgument, std::move(message)); }

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// strtoul(text, 0) over the whole token, without its leniency (no sign, no blanks, no junk):
// "0x" hex, a leading 0 octal, else decimal; at most 32 bits.
Result<std::uint32_t> parse_number(std::string_view text, std::string_view what) {
  if (text.empty()) return invalid("missing " + std::string(what));
  unsigned base = 10;
  std::size_t i = 0;
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    i = 2;
    if (text.size() == 2) return invalid(std::string(what) + " " + quote(text) + " has no hex digits");
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    i = 1;
  }
  std::uint64_t value = 0;
  for (; i < text.size(); ++i) {
    const int d = digit_value(text[i]);
    if (d < 0 || static_cast<unsigned>(d) >= base)
      return invalid(std::string(what) + " " + quote(text) + " is not a number");
    value = value * base + static_cast<unsigned>(d);
    if (value > kMaxDword) return invalid(std::string(what) + " " + quote(text) + " does not fit in 32 bits");
  }
  return static_cast<std::uint32_t>(value);
}

// Single-space separated tokens; an empty token (leading, trailing or double space) fails.
Result<std::vector<std::string_view>> split_tokens(std::string_view text) {
  std::vector<std::string_view> tokens;
  std::size_t start = 0;
  while (true) {
    const std::size_t space = text.find(' ', start);
    const std::string_view token = text.substr(start, space == std::string_view::npos ? space : space - start);
    if (token.empty()) return invalid("empty field (a leading, trailing or doubled space)");
    tokens.push_back(token);
    if (space == std::string_view::npos) return tokens;
    start = space + 1;
  }
}

std::size_t dwords_for(std::size_t bytes) { return (bytes + 3) / 4; }

Result<std::uint32_t> parse_offset(std::string_view token) {
  OF_ASSIGN(const std::uint32_t offset, parse_number(token, "offset"));
  if (offset % 4 != 0) return invalid("offset " + hex_string(offset) + " is not dword aligned");
  return offset;
}

// B and U: a size of 1..kBusMaxBlockBytes that does not run past the 32-bit address space.
Result<std::uint32_t> parse_block_size(std::string_view token, std::uint32_t offset) {
  OF_ASSIGN(const std::uint32_t size, parse_number(token, "size"));
  if (size == 0 || size > kBusMaxBlockBytes)
    return invalid("size " + std::to_string(size) + " is not 1.." + std::to_string(kBusMaxBlockBytes) + " bytes");
  if (static_cast<std::uint64_t>(offset) + size > kMaxDword + 1)
    return invalid("block at " + hex_string(offset) + " runs past the end of the address space");
  return size;
}

Result<void> expect_fields(const std::vector<std::string_view>& args, std::size_t n, char letter) {
  if (args.size() == n) return {};
  return invalid(std::string("command ") + letter + " takes " + std::to_string(n) + " argument(s), got " +
                 std::to_string(args.size()));
}

Result<void> parse_open(const std::vector<std::string_view>& args, BusRequest& r) {
  if (args.empty() || args.size() > 2) return invalid("command O takes [<dtype>] <device>");
  if (args.size() == 2) {
    OF_ASSIGN(r.device_type, parse_number(args[0], "device type"));
  }
  r.device = std::string(args.back());
  return {};
}

// G: none (the probe) or <reg id> <method> <size> <dword>... with size/4 dwords.
Result<void> parse_register(const std::vector<std::string_view>& args, BusRequest& r) {
  if (args.empty()) return {};
  if (args.size() < 4) return invalid("command G takes nothing or <reg id> <method> <size> <dword>...");
  OF_ASSIGN(const std::uint32_t id, parse_number(args[0], "register id"));
  if (id > 0xffff) return invalid("register id " + hex_string(id) + " does not fit in 16 bits");
  OF_ASSIGN(const std::uint32_t method, parse_number(args[1], "method"));
  if (method != kBusRegisterQuery && method != kBusRegisterWrite)
    return invalid("register method " + std::to_string(method) + " is not 1 (query) or 2 (write)");
  OF_ASSIGN(const std::uint32_t size, parse_number(args[2], "size"));
  if (size == 0 || size % 4 != 0 || size > kBusMaxRegisterBytes)
    return invalid("register size " + std::to_string(size) + " is not a multiple of 4 in 4.." +
                   std::to_string(kBusMaxRegisterBytes));
  if (args.size() - 3 != size / 4)
    return invalid("G of " + std::to_string(size) + " bytes needs " + std::to_string(size / 4) + " dword(s), got " +
                   std::to_string(args.size() - 3));
  r.register_id = static_cast<std::uint16_t>(id);
  r.method = static_cast<std::uint8_t>(method);
  r.size = size;
  for (std::size_t i = 3; i < args.size(); ++i) {
    OF_ASSIGN(const std::uint32_t dw, parse_number(args[i], "register dword"));
    r.data.push_back(dw);
  }
  return {};
}

// X: <level> <run>, level 3 or 4, run 0 (the plan) or 1 (the reset).
Result<void> parse_reset(const std::vector<std::string_view>& args, BusRequest& r) {
  if (args.size() != 2) return invalid("command X takes <level> <run>");
  OF_ASSIGN(const std::uint32_t level, parse_number(args[0], "reset level"));
  if (level != kBusResetNow && level != kBusResetArm)
    return invalid("reset level " + std::to_string(level) + " is not 3 (reset now) or 4 (arm for the next warm reboot)");
  OF_ASSIGN(const std::uint32_t run, parse_number(args[1], "run flag"));
  if (run > 1) return invalid("reset run flag " + std::to_string(run) + " is not 0 (plan) or 1 (reset)");
  r.reset_level = static_cast<std::uint8_t>(level);
  r.reset_run = run == 1;
  return {};
}

Result<void> parse_arguments(const std::vector<std::string_view>& args, BusRequest& r) {
  const char letter = static_cast<char>(r.command);
  switch (r.command) {
    case BusCommand::Version:
    case BusCommand::List:
    case BusCommand::Close:
    case BusCommand::PciChange: return expect_fields(args, 0, letter);
    case BusCommand::Open: return parse_open(args, r);
    case BusCommand::Read: {
      OF_TRY(expect_fields(args, 1, letter));
      OF_ASSIGN(r.offset, parse_offset(args[0]));
      return {};
    }
    case BusCommand::Write: {
      OF_TRY(expect_fields(args, 2, letter));
      OF_ASSIGN(r.offset, parse_offset(args[0]));
      OF_ASSIGN(r.value, parse_number(args[1], "value"));
      return {};
    }
    case BusCommand::AddressSpace: {
      OF_TRY(expect_fields(args, 1, letter));
      OF_ASSIGN(r.value, parse_number(args[0], "address space"));
      return {};
    }
    case BusCommand::ReadBlock: {
      OF_TRY(expect_fields(args, 2, letter));
      OF_ASSIGN(r.offset, parse_offset(args[0]));
      OF_ASSIGN(r.size, parse_block_size(args[1], r.offset));
      return {};
    }
    case BusCommand::WriteBlock: {
      if (args.size() < 2) return invalid("command U takes <offset> <size> <dword>...");
      OF_ASSIGN(r.offset, parse_offset(args[0]));
      OF_ASSIGN(r.size, parse_block_size(args[1], r.offset));
      if (args.size() - 2 != dwords_for(r.size))
        return invalid("U of " + std::to_string(r.size) + " bytes needs " + std::to_string(dwords_for(r.size)) +
                       " dword(s), got " + std::to_string(args.size() - 2));
      for (std::size_t i = 2; i < args.size(); ++i) {
        OF_ASSIGN(const std::uint32_t dw, parse_number(args[i], "data dword"));
        r.data.push_back(dw);
      }
      return {};
    }
    case BusCommand::Register: return parse_register(args, r);
    case BusCommand::Reset: return parse_reset(args, r);
  }
  return invalid("unknown command");
}

bool is_known_command(char c) {
  for (const char k : std::string_view("VLOCRWBUPAGX"))
    if (c == k) return true;
  return false;
}

}  // namespace

Result<void> check_bus_device_name(std::string_view device) {
  if (device.empty()) return invalid("an empty device name cannot be sent to a bus server");
  for (const char c : device)
    if (c <= ' ' || c >= 0x7f)
      return invalid("device name " + quote(device) +
                     " cannot be sent to a bus server: it holds a space, a control or a non-ASCII byte");
  // "O <dtype> <device>" and its NUL within the legacy request bound.
  BusRequest open = bus_request(BusCommand::Open);
  open.device_type = kBusDeviceTypeTavor;
  open.device = std::string(device);
  const std::size_t request_bytes = format_bus_request(open).size() + 1;
  if (request_bytes > kBusMaxRequestBytes)
    return invalid("device name " + quote(device) + " of " + std::to_string(device.size()) +
                   " bytes cannot be sent to a bus server: its O request would exceed " +
                   std::to_string(kBusMaxRequestBytes - 1) + " bytes");
  return {};
}

Result<BusRequest> parse_bus_request(std::string_view text) {
  if (text.empty()) return invalid("empty request");
  // G carries a register of up to kBusMaxRegisterBytes; the legacy commands keep their bound.
  const std::size_t bound = text[0] == static_cast<char>(BusCommand::Register) ? kBusMaxRegisterRequestBytes
                                                                                : kBusMaxRequestBytes;
  if (text.size() >= bound)
    return invalid("request of " + std::to_string(text.size()) + " bytes exceeds " + std::to_string(bound - 1));
  for (const char c : text)
    if (c < 0x20 || c >= 0x7f) return invalid("request contains a control or non-ASCII byte");
  if (!is_known_command(text[0])) return invalid("unknown command " + quote(text.substr(0, 1)));
  if (text.size() > 1 && text[1] != ' ') return invalid("command letter not followed by a space: " + quote(text));
  BusRequest r;
  r.command = static_cast<BusCommand>(text[0]);
  std::vector<std::string_view> args;
  if (text.size() > 1) {
    OF_ASSIGN(args, split_tokens(text.substr(2)));
  }
  OF_TRY(parse_arguments(args, r));
  return r;
}

std::string format_bus_request(const BusRequest& r) {
  std::string text(1, static_cast<char>(r.command));
  const auto add = [&text](std::string_view field) {
    text += ' ';
    text += field;
  };
  switch (r.command) {
    case BusCommand::Open:
      if (r.device_type) add(std::to_string(*r.device_type));
      add(r.device);
      break;
    case BusCommand::Read: add(hex_string(r.offset)); break;
    case BusCommand::Write:
      add(hex_string(r.offset));
      add(hex_string(r.value));
      break;
    case BusCommand::AddressSpace: add(hex_string(r.value)); break;
    case BusCommand::ReadBlock:
    case BusCommand::WriteBlock:
      add(hex_string(r.offset));
      add(std::to_string(r.size));
      if (r.command == BusCommand::WriteBlock)
        for (const std::uint32_t dw : r.data) add(hex_string(dw));
      break;
    case BusCommand::Register:
      if (r.size == 0) break;  // the probe
      add(hex_string(r.register_id));
      add(std::to_string(r.method));
      add(std::to_string(r.size));
      for (const std::uint32_t dw : r.data) add(hex_string(dw));
      break;
    case BusCommand::Reset:
      add(std::to_string(r.reset_level));
      add(r.reset_run ? "1" : "0");
      break;
    default: break;
  }
  return text;
}

std::string format_ok(std::string_view payload) { return payload.empty() ? "O" : "O " + std::string(payload); }
std::string format_error(std::string_view text) { return "E " + std::string(text); }
std::string format_read_reply(std::uint32_t value) { return format_ok(hex_dword(value)); }

std::string format_block_reply(std::span<const std::uint32_t> dwords, std::size_t size_bytes) {
  std::string text = "O";
  const std::size_t whole = size_bytes / 4, tail = size_bytes % 4;
  for (std::size_t i = 0; i < whole && i < dwords.size(); ++i) text += " " + hex_dword(dwords[i]);
  if (tail != 0 && whole < dwords.size()) {
    static constexpr char kDigits[] = "0123456789abcdef";
    text += " 0x";
    for (std::size_t b = tail; b-- > 0;) {
      const auto byte = static_cast<std::uint8_t>(dwords[whole] >> (8 * b));
      text += kDigits[byte >> 4];
      text += kDigits[byte & 0xf];
    }
  }
  return text;
}

Result<std::string> parse_ok_reply(std::string_view reply) {
  if (reply == "O") return std::string();
  if (reply.starts_with("O ")) return std::string(reply.substr(2));
  if (reply.starts_with("E ") || reply == "E") {
    const std::string_view text = reply.substr(reply.size() > 1 ? 2 : 1);
    const bool busy = text.starts_with(kBusDeviceBusy) || text.starts_with(kBusServerBusy);
    return make_error(busy ? ErrorCode::Busy : ErrorCode::Io, "the server answered: " + std::string(text));
  }
  return make_error(ErrorCode::Io, "malformed reply " + quote(reply));
}

Result<std::uint32_t> parse_read_reply(std::string_view reply) {
  OF_ASSIGN(const std::string payload, parse_ok_reply(reply));
  auto value = parse_number(payload, "reply value");
  if (!value) return make_error(ErrorCode::Io, "malformed reply " + quote(reply) + ": " + value.error().message());
  return value;
}

Result<std::vector<std::uint32_t>> parse_block_reply(std::string_view reply, std::size_t size_bytes) {
  OF_ASSIGN(const std::string payload, parse_ok_reply(reply));
  const auto bad = [&reply](const std::string& why) { return make_error(ErrorCode::Io, "malformed block reply " + quote(reply) + ": " + why); };
  if (size_bytes == 0 || size_bytes > kBusMaxBlockBytes) return bad("size " + std::to_string(size_bytes) + " out of range");
  auto tokens = split_tokens(payload);
  if (!tokens) return bad(tokens.error().message());
  if (tokens->size() != dwords_for(size_bytes))
    return bad(std::to_string(tokens->size()) + " values for " + std::to_string(size_bytes) + " bytes");
  const std::size_t tail = size_bytes % 4;
  std::vector<std::uint32_t> out;
  out.reserve(tokens->size());
  for (std::size_t i = 0; i < tokens->size(); ++i) {
    auto value = parse_number((*tokens)[i], "value");
    if (!value) return bad(value.error().message());
    const bool partial = tail != 0 && i + 1 == tokens->size();
    if (partial && (*value >> (8 * tail)) != 0) return bad("the tail value has more than " + std::to_string(tail) + " byte(s)");
    out.push_back(*value);
  }
  return out;
}

std::string format_register_reply(const BusRegisterReply& reply) {
  std::string text = "O " + hex_string(reply.status);
  for (const std::uint32_t dw : reply.data) text += " " + hex_string(dw);
  return text;
}

Result<BusRegisterReply> parse_register_reply(std::string_view reply) {
  OF_ASSIGN(const std::string payload, parse_ok_reply(reply));
  const auto bad = [&reply](const std::string& why) {
    return make_error(ErrorCode::Io, "malformed register reply " + quote(reply) + ": " + why);
  };
  auto tokens = split_tokens(payload);
  if (!tokens) return bad(tokens.error().message());
  if (tokens->size() - 1 > kBusMaxRegisterDwords) return bad("more than " + std::to_string(kBusMaxRegisterDwords) + " dwords");
  auto status = parse_number(tokens->front(), "status");
  if (!status) return bad(status.error().message());
  if (*status > 0x7f) return bad("status " + hex_string(*status) + " does not fit in 7 bits");
  BusRegisterReply out;
  out.status = static_cast<std::uint8_t>(*status);
  for (std::size_t i = 1; i < tokens->size(); ++i) {
    auto value = parse_number((*tokens)[i], "register dword");
    if (!value) return bad(value.error().message());
    out.data.push_back(*value);
  }
  return out;
}

std::vector<std::uint32_t> register_dwords(std::span<const std::uint8_t> bytes) {
  std::vector<std::uint32_t> out(bytes.size() / 4);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint32_t>(bytes[4 * i]) << 24 | static_cast<std::uint32_t>(bytes[4 * i + 1]) << 16 |
             static_cast<std::uint32_t>(bytes[4 * i + 2]) << 8 | bytes[4 * i + 3];
  return out;
}

std::vector<std::uint8_t> register_bytes(std::span<const std::uint32_t> dwords) {
  std::vector<std::uint8_t> out;
  out.reserve(4 * dwords.size());
  for (const std::uint32_t dw : dwords)
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(dw >> shift));
  return out;
}

std::string format_reset_reply(const BusResetReply& reply) {
  std::string text = reply.resets_now ? "O 1" : "O 0";
  if (reply.took_ms) text += " " + std::to_string(*reply.took_ms);
  if (!reply.text.empty()) text += ' ';
  for (const char c : reply.text) text += (c >= 0x20 && c < 0x7f) ? c : '?';
  return text;
}

Result<BusResetReply> parse_reset_reply(std::string_view reply, bool run) {
  OF_ASSIGN(const std::string payload, parse_ok_reply(reply));
  const auto bad = [&reply](const std::string& why) {
    return make_error(ErrorCode::Io, "malformed reset reply " + quote(reply) + ": " + why);
  };
  if (payload.empty() || (payload[0] != '0' && payload[0] != '1')) return bad("no 0/1 flag");
  for (const char c : payload)
    if (c < 0x20 || c >= 0x7f) return bad("a control or non-ASCII byte");
  if (payload.size() > 1 && payload[1] != ' ') return bad("the flag is not followed by a space");
  BusResetReply out;
  out.resets_now = payload[0] == '1';
  std::string_view rest = payload.size() > 2 ? std::string_view(payload).substr(2) : std::string_view();
  if (run) {
    const std::size_t space = rest.find(' ');
    auto ms = parse_number(rest.substr(0, space), "milliseconds");
    if (!ms) return bad(ms.error().message());
    out.took_ms = *ms;
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
  }
  out.text = std::string(rest);
  return out;
}

bool is_invalid_command_reply(std::string_view reply) { return reply == format_error(kBusInvalidCommand); }

}  // namespace openflint
