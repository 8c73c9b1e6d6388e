// ParseCommandLine: the one CLI11 parse every tool runs (help, version and usage errors answered alike).
#pragma once

#include <optional>

#include <CLI/CLI.hpp>

namespace openflint::cli {

// Adds the option every tool has, --record FILE (fwops/recording/SessionRecording.h), and parses argv into
// `app`. Returns nullopt when the tool should go on; otherwise the exit status
// to return at once: 0 after --help/--help-all/--version (printed by CLI11), kUsage after a usage
// error (its message printed on stderr).
[[nodiscard]] std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

}  // namespace openflint::cli
