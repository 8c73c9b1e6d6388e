// BurnPreparation: what every burn path settles before it writes (incoming vs current copy, identity, the CLI's answer).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "fwops/burn/FlashSession.h"
#include "fwops/BurnTypes.h"
#include "fwops/burn/FlashFormat.h"

namespace openflint {

struct PreparedBurn {
  BurnPreflight preflight;             // its identity plan without the image
  std::vector<std::uint8_t> image;     // what to burn: the file with the board's identity patched in
  std::optional<CurrentCopy> current;  // the copy the device boots now, read through the session
};

// Reads the current copy through `session`, compares, plans the identity (re-verifying a patched
// image), calls `path_check` (what the burn path cannot do: Error) and then options().decide,
// and refuses an image whose hw ids exclude the device (Mismatch) or a PSID change not allowed
// (InvalidArgument). Nothing is written.
[[nodiscard]] Result<PreparedBurn> prepare_burn(FlashSession& session, const FlashFormat& burner, Bytes image,
                                                const std::function<Result<void>(const BurnPreflight&)>& path_check);

}  // namespace openflint
