// ConfigText: reading a fabric tool's text configuration (hosts file, name map, topology, thresholds) under one set of bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/Result.h"

namespace openflint {

// The bounds every such file shares: a whole file of at most kMaxConfigFileBytes (the largest
// fabric's topology is well under a megabyte) and lines of at most kMaxConfigLineBytes (the
// longest real line, a topology header with its CFG: text, is under 200 bytes). Nothing longer
// is parsed, held per line or echoed back in a message.
inline constexpr std::uint64_t kMaxConfigFileBytes = std::uint64_t{16} << 20;
inline constexpr std::size_t kMaxConfigLineBytes = 4096;

// The file as text: a regular file (core/InputFile: special files refused, NotFound/Io/
// PermissionDenied when it cannot be read; InvalidArgument when larger than the limit) whose
// lines all fit kMaxConfigLineBytes, else InvalidArgument "FILE:N: line of X bytes, more than
// the 4096-byte limit for a line of a WHAT".
[[nodiscard]] Result<std::string> read_config_text(const std::string& path, const std::string& what);

}  // namespace openflint
