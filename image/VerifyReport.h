// VerifyReport: per-section verification results, in the order mstflint prints them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Result.h"
#include "image/ImageFormat.h"

namespace openflint {

enum class SectionStatus {
  Ok,          // "OK"
  WrongCrc,    // "wrong CRC"
  CrcIgnored,  // "CRC IGNORED" (no_crc / device data that changes at run time)
  Invalid,     // structurally broken (bad size, out of range); detail says why
};

[[nodiscard]] constexpr const char* to_string(SectionStatus status) {
  switch (status) {
    case SectionStatus::Ok: return "OK";
    case SectionStatus::WrongCrc: return "wrong CRC";
    case SectionStatus::CrcIgnored: return "CRC IGNORED";
    case SectionStatus::Invalid: return "INVALID";
  }
  return "?";
}

struct SectionCheck {
  std::uint64_t start = 0;  // byte address as mstflint prints it
  std::uint64_t size = 0;   // bytes; a zero-size section prints end = start - 1 like mstflint
  std::string name;         // e.g. "MAIN_CODE", "ITOC_HEADER", "HW_POINTERS"
  SectionStatus status = SectionStatus::Ok;
  std::string detail;       // e.g. "expected 0x1234, found 0x5678"; empty when OK

  friend bool operator==(const SectionCheck&, const SectionCheck&) = default;
};

struct VerifyReport {
  ImageFormat format = ImageFormat::Fs3;
  std::uint64_t image_start = 0;
  std::string layout;                 // e.g. "FS3 failsafe image"
  std::vector<SectionCheck> sections;
  std::vector<std::string> problems;  // failures not tied to one section (missing ITOC, ...)
  // States the boot tolerates but a tool should mention (FS4: two signed DEV_INFO slots, left by
  // a power cut inside a DEV_INFO edit; the first in DTOC order is the live one).
  std::vector<std::string> warnings;

  // Bootable = every section OK or CRC IGNORED and no structural problem.
  [[nodiscard]] bool bootable() const {
    if (!problems.empty()) return false;
    for (const auto& s : sections)
      if (s.status == SectionStatus::WrongCrc || s.status == SectionStatus::Invalid) return false;
    return true;
  }
};

// The report's first failure as an error: its first structural problem (InvalidImage), else its
// first section with a wrong CRC (Mismatch) or an invalid one (InvalidImage); each message
// starts with `label` ("FS3 image"). Success when the report is bootable.
[[nodiscard]] Result<void> first_failure(const VerifyReport& report, const std::string& label);

}  // namespace openflint
