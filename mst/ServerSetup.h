// ServerSetup: what mst's two servers (`mst server`, `mst web`) share — the devices served when
// none is named, and the audit log.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/Result.h"
#include "remote/BusSession.h"

namespace openflint::mst {

// `named` when given (a PCI name among them checked against `root`: InvalidArgument for a
// malformed one), else every catalogued function `mst status` lists under `root`.
[[nodiscard]] Result<std::vector<std::string>> served_devices(const std::vector<std::string>& named,
                                                              const std::filesystem::path& root);

// `named` and then every node of the fabric swept from `ca`/`port` (empty/0: the first CA, its
// first active port) by its in-band name: lid-N, or lid-N,CA[,PORT] when a port was named. The
// sweep's error (no umad port, no fabric) as it comes; NotFound when it finds no node with a LID.
[[nodiscard]] Result<std::vector<std::string>> inband_served_devices(const std::vector<std::string>& named,
                                                                     const std::string& ca, int port);

// Audit lines appended to `path`, or "-I- LINE" on stderr when it is empty; callable from any
// thread (one line at a time).
[[nodiscard]] Result<AuditLog> make_audit_log(const std::string& path);

}  // namespace openflint::mst
