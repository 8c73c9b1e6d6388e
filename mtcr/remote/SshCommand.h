// SshCommand: the argv that runs `mst server --stdio DEVICES...` on a RemoteHost through the system's ssh.
#pragma once

#include <chrono>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "mtcr/remote/RemoteHost.h"

namespace openflint {

// What the environment chooses, read once by the caller (so the builder is a pure function).
struct SshCommandSettings {
  // OPENFLINT_SSH_COMMAND, split on whitespace like GIT_SSH_COMMAND (no quoting): the client and
  // options of the user's choice, e.g. "ssh -i KEY -o IdentitiesOnly=yes". Default "ssh" when
  // unset; set but empty (or blank) is an error, not the default.
  std::string ssh_command = "ssh";
  // OPENFLINT_REMOTE_MST: the remote command that starts our tool, shell text for the remote
  // shell (so "sudo /opt/openflint/bin/mst" works). Default "mst" (found on the remote PATH)
  // when unset; set but empty is an error.
  std::string remote_mst = "mst";

  [[nodiscard]] static SshCommandSettings from_environment();
};

// `$OPENFLINT_SSH_COMMAND -o BatchMode=yes -o ConnectTimeout=S -T -x -a [-p PORT] [USER@]HOST
// 'REMOTE_MST server --stdio 'DEV'...'`:
// BatchMode: never prompt (a password, a passphrase or an unknown host key fails at once);
// ConnectTimeout: `timeout` rounded up to seconds; -T: no pty, whose line discipline would
// mangle the NUL-framed stream; -x -a: no X11 or agent forwarding, whatever ~/.ssh/config says.
// Each device is single-quoted for the remote shell. InvalidArgument when the host is not an
// ssh host, when the ssh command or the remote mst command is empty, or when the user or host
// starts with '-' (ssh would read it as an option: "-oProxyCommand=..."). Whether a client can
// then name a device in its O request is the caller's check (check_bus_device_name).
[[nodiscard]] Result<std::vector<std::string>> ssh_command_line(const RemoteHost& host,
                                                                std::span<const std::string> devices,
                                                                std::chrono::milliseconds timeout,
                                                                const SshCommandSettings& settings);

// `text` as one word for a POSIX shell: in single quotes, each ' written as '\''.
[[nodiscard]] std::string shell_quoted(std::string_view text);

}  // namespace openflint
