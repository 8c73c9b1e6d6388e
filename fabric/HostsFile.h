// HostsFile: the hosts whose bus servers reach fabric devices out-of-band (ibfwmgr --hosts FILE).
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "mtcr/remote/RemoteHost.h"

namespace openflint {

// One RemoteHost per line (HOST[:PORT] or ssh:[USER@]HOST[:PORT], mtcr/remote/RemoteHost.h); '#' starts
// a comment; blank lines and surrounding blanks are ignored. InvalidArgument "FILE:LINE: why" for
// the first line that does not parse; NotFound/Io when the file cannot be read.
[[nodiscard]] Result<std::vector<RemoteHost>> read_hosts_file(const std::filesystem::path& path);
// The same on text already read; `source` names it in errors.
[[nodiscard]] Result<std::vector<RemoteHost>> parse_hosts(std::string_view text, std::string_view source);

}  // namespace openflint
