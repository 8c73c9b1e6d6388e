// MoreCommands: CLI11 registration of swreset, hw query, cs, bc, bb, wbne and clear_semaphore (kept out of main.cpp).
#include "flint/MoreCommands.h"

namespace openflint::cli {

void add_more_commands(CLI::App& app, Options& options, std::function<int()>& run, std::vector<std::string>& a,
                       std::vector<std::string>& data_words) {
  auto* swreset = app.add_subcommand("swreset", "software reset of a switch -d DEVICE (adapters: not supported)");
  swreset->callback([&] { run = [&] { return run_swreset(options); }; });

  auto* hw = app.add_subcommand("hw", "hardware commands: query");
  hw->require_subcommand(1);
  auto* hw_query = hw->add_subcommand("query", "flash chip, JEDEC id, size, sector size, write protection");
  hw_query->callback([&] { run = [&] { return run_hw_query(options); }; });

  auto* cs = app.add_subcommand("checksum", "MD5 of the firmware without device data (of -d DEVICE or -i IMAGE)")
                 ->alias("cs");
  cs->callback([&] { run = [&] { return run_checksum(options); }; });

  auto* bc = app.add_subcommand("binary_compare", "compare -d DEVICE's firmware with -i IMAGE; exit 1 if they differ")
                 ->alias("bc");
  bc->callback([&] { run = [&] { return run_binary_compare(options); }; });

  auto* bb = app.add_subcommand("bb", "burn -i IMAGE into -d DEVICE as is, in place, without failsafe (asks first)");
  bb->callback([&] { run = [&] { return run_burn_block(options); }; });

  auto* wbne = app.add_subcommand("wbne", "write SIZE bytes of DATA dwords at ADDR without erasing");
  wbne->add_option("ADDR", a[0], "dword-aligned flash address")->required();
  wbne->add_option("SIZE", a[1], "bytes (a multiple of 4, 4 per DATA word)")->required();
  wbne->add_option("DATA", data_words, "32-bit values, stored big-endian")->required();
  wbne->callback([&] { run = [&] { return run_wbne(options, a[0], a[1], data_words); }; });

  auto* clear = app.add_subcommand("clear_semaphore", "free every lock and semaphore a killed tool left held (VSEC gateway, ICMD and tools HCR semaphores, flash lock, the firmware's update handle); refused while a live process uses the device");
  clear->callback([&] { run = [&] { return run_clear_semaphore(options); }; });
}

}  // namespace openflint::cli
