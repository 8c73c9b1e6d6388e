// SimCommands: the hcasim subcommands; each returns a process exit code (cli/ExitCode.h).
#pragma once

#include <cstdint>
#include <string>

namespace openflint::hcasim {

struct CreateArgs {
  std::string model;
  std::string path;
  std::string image;  // empty: blank flash (the device comes up in recovery mode)
  std::string flash;  // empty: the model's default chip
};

int run_create(const CreateArgs& args, bool json);
// The catalog's simulated models, comma separated (for help and error text).
std::string simulated_models();
int run_fault(const std::string& path, std::uint64_t power_cut_after_ops, bool json);
int run_power_on(const std::string& path, bool json);
// The ASIC temperature sensor (MTMP sensor 0) reads `celsius` from now on (saved in state.json).
int run_set_temperature(const std::string& path, std::uint32_t celsius, bool json);
int run_show(const std::string& path, bool json);

}  // namespace openflint::hcasim
