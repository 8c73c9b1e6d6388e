// ReclaimedLock: one lock or semaphore clear_semaphore found held and freed (what, and how it was held).
#pragma once

#include <string>

namespace openflint {

struct ReclaimedLock {
  std::string what;    // "the VSEC gateway semaphore", "the firmware's update handle", ...
  std::string detail;  // where and how it was held: "config 0xcc, ticket 0x3a"
};

}  // namespace openflint
