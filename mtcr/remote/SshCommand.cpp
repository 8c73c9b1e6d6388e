// SshCommand: builds the ssh argv (options that keep it non-interactive, the quoted remote command).
#include "mtcr/remote/SshCommand.h"

#include <algorithm>
#include <cstdlib>

namespace openflint {
namespace {

std::vector<std::string> split_on_whitespace(std::string_view text) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\n') ++i;
    if (i > start) words.emplace_back(text.substr(start, i - start));
  }
  return words;
}

// Unset: the fallback. Set, even to nothing: its value (an empty one is refused when used, so a
// broken setting is not silently replaced by the default).
std::string env_or(const char* name, std::string fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : fallback;
}

}  // namespace

SshCommandSettings SshCommandSettings::from_environment() {
  SshCommandSettings settings;
  settings.ssh_command = env_or("OPENFLINT_SSH_COMMAND", settings.ssh_command);
  settings.remote_mst = env_or("OPENFLINT_REMOTE_MST", settings.remote_mst);
  return settings;
}

std::string shell_quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

Result<std::vector<std::string>> ssh_command_line(const RemoteHost& host, std::span<const std::string> devices,
                                                  std::chrono::milliseconds timeout,
                                                  const SshCommandSettings& settings) {
  const std::string where = to_string(host);
  if (host.transport != RemoteTransport::Ssh)
    return make_error(ErrorCode::InvalidArgument, where + ": not an ssh host");
  if (host.host.empty()) return make_error(ErrorCode::InvalidArgument, where + ": empty host");
  if (host.host.starts_with('-') || host.user.starts_with('-'))
    return make_error(ErrorCode::InvalidArgument, where + ": a host or user starting with '-' would be an ssh option");
  std::vector<std::string> argv = split_on_whitespace(settings.ssh_command);
  if (argv.empty())
    return make_error(ErrorCode::InvalidArgument, "OPENFLINT_SSH_COMMAND is set but empty (unset it to run ssh)");
  if (split_on_whitespace(settings.remote_mst).empty())
    return make_error(ErrorCode::InvalidArgument,
                      "OPENFLINT_REMOTE_MST is set but empty (unset it to run mst from the remote PATH)");
  const long long seconds = std::max<long long>(1, (timeout.count() + 999) / 1000);
  argv.insert(argv.end(), {"-o", "BatchMode=yes", "-o", "ConnectTimeout=" + std::to_string(seconds), "-T", "-x", "-a"});
  if (host.port != 0) argv.insert(argv.end(), {"-p", std::to_string(host.port)});
  argv.push_back(host.user.empty() ? host.host : host.user + "@" + host.host);
  std::string remote = settings.remote_mst + " server --stdio";
  for (const auto& device : devices) remote += " " + shell_quoted(device);
  argv.push_back(std::move(remote));
  return argv;
}

}  // namespace openflint
