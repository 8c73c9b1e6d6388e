// Commands: the flint subcommands; each returns a process exit code (see ExitCode.h).
#pragma once

#include <string>

#include "core/Error.h"
#include "flint/Options.h"

namespace openflint::cli {

int run_query(const Options& options);
int run_verify(const Options& options);
int run_dump_config(const Options& options, const std::string& out_path);
int run_archive_list(const Options& options);
int run_archive_extract(const Options& options, const std::string& out_path);

// Prints an error ("-E- ..." on stderr, or a JSON document on stdout with --json) and
// returns the exit code that goes with it.
int report_error(const Options& options, const Error& error);

}  // namespace openflint::cli
