// Options: flint's global command-line options, shared by every subcommand.
#pragma once

#include <string>

namespace openflint::cli {

struct Options {
  std::string image;   // -i FILE (an image, or an .mfa archive with --psid)
  std::string device;  // -d DEVICE
  std::string psid;    // --psid: the board to pick from an archive
  bool json = false;   // --json: machine-readable output on stdout
  bool yes = false;    // -y/--yes: answer yes to every question
  bool no = false;     // --no: answer no to every question
  bool nofs = false;   // --nofs: burn without failsafe
  bool force = false;  // --force: allow an unsafe in-place sector rewrite (ww/wb)
  bool allow_psid_change = false;  // --allow_psid_change: burn an image with another PSID
  int lock_timeout_ms = 5000;      // --lock-timeout: wait this long for a busy device
};

}  // namespace openflint::cli
