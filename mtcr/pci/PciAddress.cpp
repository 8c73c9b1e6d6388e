// PciAddress: parsing and printing of DDDD:BB:DD.F.
#include "mtcr/pci/PciAddress.h"

#include <charconv>
#include <cctype>
#include <cstdio>

namespace openflint {
namespace {

// One hex field of at most `max_digits` digits, no larger than `max`; advances `text`.
bool take_hex(std::string_view& text, std::size_t max_digits, unsigned max, unsigned& out) {
  std::size_t n = 0;
  while (n < text.size() && n < max_digits && std::isxdigit(static_cast<unsigned char>(text[n]))) ++n;
  if (n == 0) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + n, out, 16);
  if (ec != std::errc() || end != text.data() + n || out > max) return false;
  text.remove_prefix(n);
  return true;
}

bool take_char(std::string_view& text, char c) {
  if (text.empty() || text.front() != c) return false;
  text.remove_prefix(1);
  return true;
}

}  // namespace

std::string PciAddress::to_string() const {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%x", domain, bus, device, function);
  return buf;
}

Result<PciAddress> parse_pci_address(std::string_view text) {
  const auto invalid = [&] {
    return make_error(ErrorCode::InvalidArgument,
                      "'" + std::string(text) + "' is not a PCI address (DDDD:BB:DD.F or BB:DD.F)");
  };
  // Two colons: the domain is given.
  const bool has_domain = text.find(':') != text.rfind(':');
  std::string_view rest = text;
  unsigned domain = 0, bus = 0, dev = 0, func = 0;
  if (has_domain && !(take_hex(rest, 4, 0xffff, domain) && take_char(rest, ':'))) return invalid();
  if (!take_hex(rest, 2, 0xff, bus) || !take_char(rest, ':')) return invalid();
  if (!take_hex(rest, 2, 31, dev) || !take_char(rest, '.')) return invalid();
  if (!take_hex(rest, 1, 7, func) || !rest.empty()) return invalid();
  return PciAddress{static_cast<std::uint16_t>(domain), static_cast<std::uint8_t>(bus),
                    static_cast<std::uint8_t>(dev), static_cast<std::uint8_t>(func)};
}

}  // namespace openflint
