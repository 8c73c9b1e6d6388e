// ImageQuery: mstflint-style text for versions and dates.
#include "image/ImageQuery.h"

#include <cstdio>

namespace openflint {

std::string FwVersion::to_string() const {
  // mstflint's VERSION_FORMAT: the minor is padded only when it has 3+ digits.
  char buf[32];
  std::snprintf(buf, sizeof buf, minor < 100 ? "%u.%u.%04u" : "%u.%04u.%04u", unsigned{major},
                unsigned{minor}, unsigned{subminor});
  return buf;
}

std::string ReleaseDate::to_string() const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%u.%u.%u", unsigned{day}, unsigned{month}, unsigned{year});
  return buf;
}

}  // namespace openflint
