// Options: flint's global command-line options, shared by every subcommand.
#pragma once

#include <string>
#include <vector>

namespace openflint::flint {

struct Options {
  std::string image;   // -i FILE (an image, or an .mfa archive with --psid)
  std::string device;  // -d DEVICE
  std::string psid;    // --psid: the board to pick from an archive
  std::string archive_format;               // archive create --format (mfa2, pldm)
  std::vector<std::string> archive_inputs;  // archive create --bins IMG|DIR...
  std::vector<std::string> archive_psids;   // archive create --psid P...: the boards of -i PACKAGE to repack
  bool json = false;   // --json: machine-readable output on stdout
  bool yes = false;    // -y/--yes: answer yes to every question
  bool no = false;     // --no: answer no to every question
  bool nofs = false;   // --nofs: burn without failsafe
  bool no_flash_verify = false;  // --no_flash_verify: burn/bb without reading each write back
  bool ocr = false;  // --ocr: burn through the flash gateway even when the running firmware takes burns
  bool force = false;  // --force: allow an unsafe in-place sector rewrite (ww/wb)
  bool allow_psid_change = false;  // --allow_psid_change: burn an image with another PSID
  int lock_timeout_ms = 5000;      // --lock-timeout: wait this long for a busy device
  std::string sysfs_root;          // --sysfs: the PCI sysfs root (empty: OPENFLINT_SYSFS_ROOT or /sys/bus/pci)
  // burn: the board's identity (mstflint's flags; fwops/burn/BoardIdentity.h decides)
  bool use_image_guids = false;    // --use_image_guids
  bool use_image_ps = false;       // --use_image_ps: the image's VSD
  bool blank_guids = false;        // --blank_guids
  bool ignore_dev_data = false;    // --ignore_dev_data (FS3/FS4)
  std::string guid;                // --guid BASE
  std::vector<std::string> guids;  // --guids G1 G2 G3 G4
  std::string mac;                 // --mac BASE
  std::vector<std::string> macs;   // --macs M1 M2
  std::string uid;                 // --uid BASE (FS3/FS4)
  std::string vsd;                 // --vsd TEXT
  bool vsd_given = false;
  bool silent = false;             // -s/--silent: no progress or information lines
  std::string log;                 // --log FILE: append what a burn did
  // FS4 image signing (mstflint's flags; flint/SignCommand.cpp)
  std::string private_key;         // --private_key KEY.pem: sign
  std::string key_uuid;            // --key_uuid UUID: sign
  std::string public_key;          // --public_key KEY.pem: v/q check the signature with it
};

}  // namespace openflint::flint
