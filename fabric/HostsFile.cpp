// HostsFile: line-numbered parsing of a hosts file; the host grammar is mtcr/remote/RemoteHost's.
#include "fabric/HostsFile.h"

#include "core/BlankTrim.h"
#include "fabric/ConfigText.h"

namespace openflint {

Result<std::vector<RemoteHost>> parse_hosts(std::string_view text, std::string_view source) {
  std::vector<RemoteHost> hosts;
  std::size_t number = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++number;
    line = trim_blanks(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    auto host = parse_remote_host(line);
    if (!host) {
      // A line of two words ("NAME GUID") is a name map's: ibls/ibmon/ibcon took the name map as
      // --hosts before --hosts meant bus servers in every fabric tool.
      const bool two_words = line.find_first_of(" \t") != std::string_view::npos;
      return make_error(ErrorCode::InvalidArgument, std::string(source) + ":" + std::to_string(number) + ": " +
                                                        host.error().message() +
                                                        (two_words ? " (a hosts file lists bus servers, one HOST[:PORT] "
                                                                     "a line; the name map is --names now)"
                                                                   : ""));
    }
    hosts.push_back(std::move(*host));
  }
  return hosts;
}

Result<std::vector<RemoteHost>> read_hosts_file(const std::filesystem::path& path) {
  OF_ASSIGN(const std::string text, read_config_text(path.string(), "hosts file"));
  return parse_hosts(text, path.string());
}

}  // namespace openflint
