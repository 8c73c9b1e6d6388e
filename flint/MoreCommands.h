// MoreCommands: flint's maintenance and comparison subcommands, with mstflint's names:
// swreset, hw query, checksum|cs, binary_compare|bc, bb, wbne, clear_semaphore.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "flint/Options.h"

namespace openflint::cli {

// Registers swreset, hw query, checksum|cs, binary_compare|bc, bb, wbne and clear_semaphore;
// `args` are main's positional slots (at least 3), `run` receives the chosen command.
void add_more_commands(CLI::App& app, Options& options, std::function<int()>& run, std::vector<std::string>& args,
                       std::vector<std::string>& data_words);

// ChecksumCommands.cpp: on -d DEVICE when given, else on -i IMAGE.
int run_checksum(const Options& options);
// -d DEVICE against -i IMAGE: 0 equal, 1 differ.
int run_binary_compare(const Options& options);

// MaintenanceCommands.cpp, on -d DEVICE.
int run_swreset(const Options& options);
int run_hw_query(const Options& options);
int run_device_dump_config(const Options& options, const std::string& out_path);
int run_wbne(const Options& options, const std::string& address, const std::string& size,
             const std::vector<std::string>& data);
int run_clear_semaphore(const Options& options);
// Burns -i IMAGE in place at 0 without failsafe, after a y/N question.
int run_burn_block(const Options& options);

}  // namespace openflint::cli
