// SimDeviceState: saving a simulated device to a directory and loading it back (sim:PATH devices).
#include <algorithm>
#include <iterator>
#include <string>

#include "core/InputFile.h"
#include "core/OutputFile.h"
#include "devices/DeviceCatalog.h"
#include "sim/SimDevice.h"
#include "sim/SimStateFile.h"

namespace openflint::sim {
namespace {

namespace fs = std::filesystem;

// flash.bin is read in pieces of this size (one small buffer, not a second whole flash).
constexpr std::size_t kLoadChunk = 1 << 20;

// A whole regular file of at most `max_size` bytes (core/InputFile: special files and bigger
// files are refused before a byte is read).
Result<std::string> read_text(const fs::path& path, std::uintmax_t max_size) {
  OF_ASSIGN(const std::vector<std::uint8_t> bytes, read_input_file(path.string(), max_size, path.filename().string()));
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace

Result<void> SimDevice::save_state(const fs::path& dir) const {
  std::lock_guard guard(bus_);  // one consistent state, also while a server's clients drive the device
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return make_error(ErrorCode::Io, "cannot create " + dir.string() + ": " + ec.message());
  SimStateFile state;
  state.model = std::string(info_->sim_model);
  state.flash_chip = std::string(flash_.chip().name);
  state.powered = powered_;
  state.temperature_c = temperature_c_;
  state.flash_locked = gateway_.locked();
  state.faults = faults();
  state.counters = counters();
  state.boot = boot_;
  state.registers = cr_.registers();
  state.registers.erase(info_->flash_gateway.cmd_addr);  // saved as the lock state
  state.nv_stored = nv_config_.stored();
  state.nv_current = nv_config_.current();
  if (tracer_) state.tracer = tracer_->settings();
  // Both files are written in full (as FILE.tmp-XXXXXX, made anew, never through a link)
  // before either replaces its old copy: an error (disk full, a link planted in the directory)
  // leaves the previous state as it was.
  const std::string text = state.to_json();
  const bool flash_current = !flash_file_dir_.empty() && flash_file_dir_ == dir &&
                             flash_file_generation_ == flash_.generation() &&
                             fs::is_regular_file(fs::symlink_status(dir / "flash.bin"));  // a planted link is refused below
  OF_ASSIGN(OutputFile state_file, OutputFile::create((dir / "state.json").string(), "simulator file", OutputFile::Role::State));
  OF_TRY(state_file.write(Bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size())));
  if (!flash_current) {
    OF_ASSIGN(OutputFile flash_file, OutputFile::create((dir / "flash.bin").string(), "simulator file", OutputFile::Role::State));
    OF_TRY(flash_file.write(flash_.contents()));
    OF_TRY(flash_file.commit());
    flash_file_dir_ = dir;
    flash_file_generation_ = flash_.generation();
  }
  return state_file.commit();
}

Result<std::unique_ptr<SimDevice>> SimDevice::load_state(const fs::path& dir) {
  const std::string context = "loading simulator state " + dir.string();
  OF_ASSIGN_CTX(const std::string text, read_text(dir / "state.json", SimStateFile::kMaxBytes), context);
  OF_ASSIGN_CTX(const SimStateFile state, SimStateFile::parse(text), context + ": state.json");
  OF_ASSIGN_CTX(const DeviceInfo* info, find_device_by_sim_model(state.model), context);
  OF_ASSIGN_CTX(const FlashChip* chip, find_flash_chip_by_name(state.flash_chip), context);
  OF_ASSIGN(std::unique_ptr<SimDevice> dev, create(*info, chip));

  // flash.bin goes into the cell array a megabyte at a time: no whole-flash buffer per load
  // (every sim:PATH command loads the device; 16-32 MiB of fresh pages each were most of an
  // ASan test's wall time).
  const std::size_t flash_size = dev->flash_.contents().size();
  OF_ASSIGN_CTX(const InputFile flash, InputFile::open((dir / "flash.bin").string(), flash_size, "flash.bin"), context);
  if (flash.size() != flash_size)
    return make_error(ErrorCode::InvalidImage, context + ": flash.bin of " + std::to_string(flash.size()) +
                                                   " bytes does not fit chip " + state.flash_chip + " of " +
                                                   std::to_string(flash_size) + " bytes");
  // The new chip is erased (all 0xFF), so programming its cells with the file's bytes leaves
  // exactly those bytes; the counters this bumps are restored from the state below.
  std::vector<std::uint8_t> chunk(std::min<std::size_t>(flash_size, kLoadChunk));
  for (std::size_t at = 0; at < flash_size; at += chunk.size()) {
    const std::span<std::uint8_t> part(chunk.data(), std::min(chunk.size(), flash_size - at));
    OF_TRY_CTX(flash.read(at, part), context);
    if (!dev->flash_.program_cells(static_cast<std::uint32_t>(at), part))
      return make_error(ErrorCode::Internal, context + ": the new chip refused its contents");
  }

  for (const auto& [address, value] : state.registers) dev->cr_.poke(address, value);
  const SimCounters& c = state.counters;
  dev->register_reads_ = c.register_reads;
  dev->register_writes_ = c.register_writes;
  dev->gateway_.set_commands(c.gateway_commands);
  dev->flash_.set_counters(c.flash);
  dev->firmware_counters_ = c.firmware;
  if (dev->i2c_master_ != nullptr) dev->i2c_master_->set_counters(c.i2c);
  dev->set_faults(state.faults);
  dev->gateway_.set_locked(state.flash_locked);
  dev->powered_ = state.powered;
  dev->temperature_c_ = state.temperature_c;
  dev->nv_config_.restore(state.nv_stored, state.nv_current);
  // The running firmware is what booted before the save (the flash may hold a newer burn);
  // a state without it (older files) boots now.
  if (state.boot) {
    dev->boot_ = *state.boot;
  } else {
    dev->run_boot_rom();
  }
  dev->boot_tracer(false);  // the string DB of the firmware that runs; its boot was traced before the save
  if (dev->tracer_ && state.tracer) dev->tracer_->restore(*state.tracer);
  dev->temperature_warned_ = dev->temperature_c_ >= 105;
  dev->flash_file_dir_ = dir;  // its flash.bin holds this array
  dev->flash_file_generation_ = dev->flash_.generation();
  return dev;
}

}  // namespace openflint::sim
