// Fs1FlashLayout: the invariant sector and both pointer-sector copies of an FS1 flash (or file).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "fwops/burn/CopyLayout.h"
#include "fwops/edit/FlashView.h"
#include "image/Fs1PointerSector.h"

namespace openflint {

struct Fs1CopyState {
  std::uint64_t ps_at = 0;                   // flash address of the pointer sector
  std::array<std::uint8_t, fs1::kPsSize> ps{};  // its raw bytes
  ByteRange image;                           // fi_addr, fi_size
  // Signed, CRC-correct, in range and the image complete (BOOT2 and every section CRC good):
  // what the boot ROM needs to boot this copy.
  bool bootable = false;
  std::string problem;  // why not bootable
};

struct Fs1FlashLayout {
  std::uint64_t sector = 0;     // FS1 sector size from the invariant sector
  bool invariant_ok = false;    // signature and invariant BOOT2 good
  std::array<Fs1CopyState, 2> copies;  // primary, secondary

  // The copy the boot ROM picks: the primary when bootable, else the secondary.
  [[nodiscard]] const Fs1CopyState* booted() const;
};

// Reads the layout through `view` (loading the invariant sector, both pointer sectors and the
// images they name). nullopt when there is no FS1 invariant sector (signature, sector size).
[[nodiscard]] Result<std::optional<Fs1FlashLayout>> read_fs1_layout(FlashView& view);

// The names of the copies in messages.
[[nodiscard]] const char* fs1_copy_name(int index);

}  // namespace openflint
