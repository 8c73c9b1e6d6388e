// MadFormat: human-readable MAD status codes.
#include "mtcr/inband/MadFormat.h"

#include <cstdio>

namespace openflint::mad {

std::string describe_status(std::uint16_t status) {
  const char* what = "error";
  switch ((status >> 2) & 7u) {
    case 0:
      what = status == kStatusI2cNack            ? "busy: the i2c device did not acknowledge"
             : status == kStatusI2cFailed  ? "the i2c transaction failed"
             : (status & kStatusBusy) != 0 ? "busy"
             : (status & 2u) != 0          ? "redirect"
                                           : "error";
      break;
    case 1: what = "bad class version"; break;
    case 2: what = "method not supported"; break;
    case 3: what = "unsupported method/attribute combination"; break;
    case 7: what = "invalid attribute or modifier value"; break;
    default: what = "reserved status code"; break;
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "0x%04x (%s)", status, what);
  return buf;
}

}  // namespace openflint::mad
