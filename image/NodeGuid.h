// NodeGuid: the node GUID a board's firmware reports (NodeInfo), as its image on flash records it.
#pragma once

#include <cstdint>
#include <optional>

#include "image/ImageQuery.h"

namespace openflint {

// FS3/FS4: the base GUID of the device data (the node GUID; ports count up from it). FS1/FS2:
// the first entry of the GUID section (node GUID, then ports, then system image). nullopt when
// the image records none, or a blank (all-ones or zero) one.
[[nodiscard]] inline std::optional<std::uint64_t> node_guid(const ImageQuery& query) {
  std::optional<std::uint64_t> guid;
  if (query.base_guid) guid = query.base_guid->base;
  else if (!query.uids.empty()) guid = query.uids.front();
  if (guid && (*guid == 0 || *guid == ~std::uint64_t{0})) return std::nullopt;
  return guid;
}

}  // namespace openflint
