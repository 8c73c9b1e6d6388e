// Commands: the subcommands of `mst`, each group registered by its own file.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace openflint::mst {

// What every subcommand shares: --json (a JSON document on stdout; errors as cli/ErrorReport).
struct Common {
  bool json = false;
};

// Each adds its subcommands to `app`; the chosen one sets `run` (called after parsing).
void add_status_commands(CLI::App& app, std::function<int()>& run, const Common& common);    // status, start, stop, restart
void add_pci_config_commands(CLI::App& app, std::function<int()>& run, const Common& common);  // save, load
void add_register_commands(CLI::App& app, std::function<int()>& run, const Common& common);  // mread, mwrite, dump
void add_reset_command(CLI::App& app, std::function<int()>& run, const Common& common);      // reset
void add_config_command(CLI::App& app, std::function<int()>& run, const Common& common);     // config
void add_vpd_command(CLI::App& app, std::function<int()>& run, const Common& common);        // vpd
void add_reg_command(CLI::App& app, std::function<int()>& run, const Common& common);        // reg
void add_i2c_command(CLI::App& app, std::function<int()>& run, const Common& common);        // i2c
void add_server_command(CLI::App& app, std::function<int()>& run, const Common& common);     // server
void add_web_command(CLI::App& app, std::function<int()>& run, const Common& common);        // web
void add_trace_command(CLI::App& app, std::function<int()>& run, const Common& common);      // trace

}  // namespace openflint::mst
