// ComponentUpdate: MCC instructions and MCDA downloads against the simulated flash.
#include "sim/ComponentUpdate.h"

#include <algorithm>
#include <vector>

#include "image/BootCopy.h"
#include "image/Fs2Header.h"
#include "image/Fs3Image.h"
#include "image/Fs4Image.h"
#include "image/SectionType.h"
#include "image/Toc.h"
#include "sim/SimDevice.h"

namespace openflint::sim {
namespace {

bool blank(Bytes b) {
  return std::all_of(b.begin(), b.end(), [](std::uint8_t x) { return x == 0xff; });
}

// FS3 device data (MFG_INFO, DEV_INFO, NV_DATA, VPD) stays on the board, and mstflint sends
// the copy with those ITOC entries masked to 0xFF (maskDevToc): the firmware fills the holes,
// in order, with the running copy's device-data entries (each carries its own CRC), as fwops'
// burner adopts them. The filled entries: (flash address, 32 bytes). None when the new ITOC
// already lists device data or cannot be read.
std::vector<std::pair<std::uint64_t, std::vector<std::uint8_t>>> adopted_device_entries(Bytes flash,
                                                                                         std::uint64_t running,
                                                                                         std::uint64_t target) {
  std::vector<std::pair<std::uint64_t, std::vector<std::uint8_t>>> out;
  const auto old_itoc = fs3::find_itoc(flash, running);
  const auto new_itoc = fs3::find_itoc(flash, target);
  if (!old_itoc || !new_itoc) return out;
  std::vector<Bytes> kept;
  for (std::uint64_t at = *old_itoc + kTocHeaderSize; at + kTocEntrySize <= flash.size(); at += kTocEntrySize) {
    const auto e = parse_toc_entry(flash, at);
    if (!e || e->type == section_type::kEnd) break;
    if (e->fs3_device_data()) kept.push_back(flash.subspan(at, kTocEntrySize));
  }
  constexpr int kMaxEntries = 64;
  std::size_t next = 0;
  for (int i = 0; i < kMaxEntries && next < kept.size(); ++i) {
    const std::uint64_t at = *new_itoc + kTocHeaderSize + i * kTocEntrySize;
    if (at + kTocEntrySize > flash.size()) break;
    const Bytes entry = flash.subspan(at, kTocEntrySize);
    if (!blank(entry)) {
      const auto e = parse_toc_entry(flash, at);
      if (e && e->fs3_device_data()) return {};  // the copy lists its device data itself
      continue;
    }
    out.emplace_back(at, std::vector<std::uint8_t>(kept[next].begin(), kept[next].end()));
    ++next;
  }
  return out;
}

}  // namespace

UpdateStatus ComponentUpdate::status() const {
  UpdateStatus s;
  s.state = state_;
  s.handle = state_ == UpdateState::Idle ? next_handle_ : handle_;
  s.error_code = error_code_;
  s.component_size = size_;
  if (size_ != 0) s.progress = static_cast<std::uint8_t>(std::uint64_t{received_} * 100 / size_);
  if (state_ != UpdateState::Idle) {
    const auto idle = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - last_command_);
    s.idle_seconds = static_cast<std::uint32_t>(std::clamp<std::int64_t>(idle.count(), 0, 0xfff));
  }
  return s;
}

std::uint64_t ComponentUpdate::max_component_size(const SimDevice& device) { return device.flash().chip().size / 2; }

void ComponentUpdate::reset() {
  state_ = UpdateState::Idle;
  error_code_ = 0;
  size_ = received_ = 0;
  verified_.reset();
  pending_.reset();
  pending_slot_.reset();
}

void ComponentUpdate::fail(std::uint8_t error_code) {
  error_code_ = error_code;
  verified_.reset();
  state_ = UpdateState::Locked;
}

UpdateAnswer ComponentUpdate::control(SimDevice& device, UpdateInstruction instruction, std::uint32_t handle,
                                      std::uint16_t component_index, std::uint32_t component_size) {
  handle &= 0xffffff;
  if (instruction == UpdateInstruction::ForceHandleRelease) {  // any owner, any state
    state_ = UpdateState::Idle;
    verified_.reset();
    ++next_handle_;
    return UpdateAnswer::Accepted;
  }
  if (instruction == UpdateInstruction::LockUpdateHandle) {
    if (state_ != UpdateState::Idle) return UpdateAnswer::ResourceBusy;  // someone holds it
    if (handle != next_handle_) return UpdateAnswer::BadParameter;
    handle_ = handle;
    last_command_ = std::chrono::steady_clock::now();
    next_handle_ = (next_handle_ + 1) & 0xffffff;
    state_ = UpdateState::Locked;
    error_code_ = 0;
    size_ = received_ = 0;
    ++device.firmware_counters().component_locks;
    return UpdateAnswer::Accepted;
  }
  if (state_ == UpdateState::Idle || handle != handle_) return UpdateAnswer::BadParameter;
  last_command_ = std::chrono::steady_clock::now();  // the owner is at work
  switch (instruction) {
    case UpdateInstruction::CheckUpdateHandle: return UpdateAnswer::Accepted;
    case UpdateInstruction::ReleaseUpdateHandle:
      if (state_ != UpdateState::Locked) return UpdateAnswer::BadParameter;
      state_ = UpdateState::Idle;
      verified_.reset();
      return UpdateAnswer::Accepted;
    case UpdateInstruction::Cancel:  // the partial slot keeps no magic: nothing boots from it
      state_ = UpdateState::Locked;
      verified_.reset();
      size_ = received_ = 0;
      return UpdateAnswer::Accepted;
    case UpdateInstruction::UpdateComponent:
      if (state_ != UpdateState::Locked) return UpdateAnswer::BadParameter;
      return start_component(device, component_index, component_size);
    case UpdateInstruction::VerifyComponent:
      if (state_ != UpdateState::Download) return UpdateAnswer::BadParameter;
      verify(device);
      return UpdateAnswer::Accepted;
    case UpdateInstruction::ActivateComponent:
    case UpdateInstruction::Activate:
      if (state_ != UpdateState::Locked || !verified_) return UpdateAnswer::BadParameter;
      activate(device);
      return UpdateAnswer::Accepted;
    default: return UpdateAnswer::BadParameter;  // read-back (UPLOAD) is not modelled
  }
}

UpdateAnswer ComponentUpdate::start_component(SimDevice& device, std::uint16_t index, std::uint32_t size) {
  const std::uint64_t slot = max_component_size(device);
  if (index != kBootImageIndex || size < kMagicBytes || size > slot) return UpdateAnswer::BadParameter;
  const BootState& boot = device.boot_state();
  if (pending_slot_) {
    // An activated copy waits for the reset: it is what boots next and stays untouched; the new
    // one goes where the running copy lies, whose magic the activation cleared (the firmware runs
    // from its RAM). Our inference: a firmware could also refuse until the reset.
    target_ = *pending_slot_ < slot ? slot : 0;
  } else {
    target_ = boot.booted_address < slot ? slot : 0;
    const std::uint64_t running_end = boot.booted_address + (boot.running ? boot.running->image_size : 0);
    if (target_ < running_end && boot.booted_address < target_ + size) return UpdateAnswer::BadParameter;
  }
  verified_.reset();
  size_ = size;
  received_ = 0;
  error_code_ = 0;
  state_ = UpdateState::Initialize;  // erasing the partition; done before the next query
  if (!device.firmware_erase(static_cast<std::uint32_t>(target_), size)) {
    fail(mcc_error::kFlashEraseError);
    return UpdateAnswer::Accepted;
  }
  state_ = UpdateState::Download;
  return UpdateAnswer::Accepted;
}

UpdateAnswer ComponentUpdate::download(SimDevice& device, std::uint32_t handle, std::uint32_t offset,
                                       std::span<const std::uint8_t> data) {
  if (state_ != UpdateState::Download || (handle & 0xffffff) != handle_) return UpdateAnswer::BadParameter;
  last_command_ = std::chrono::steady_clock::now();
  if (offset != received_ || data.empty() || std::uint64_t{offset} + data.size() > size_)
    return UpdateAnswer::BadParameter;  // in order, inside the announced size
  std::size_t skip = 0;
  while (offset + skip < kMagicBytes && skip < data.size()) {  // held back until ACTIVATE
    magic_[offset + skip] = data[skip];
    ++skip;
  }
  if (skip < data.size() &&
      !device.firmware_program(static_cast<std::uint32_t>(target_ + offset + skip), data.subspan(skip))) {
    fail(mcc_error::kError);
    return UpdateAnswer::Accepted;
  }
  received_ += static_cast<std::uint32_t>(data.size());
  ++device.firmware_counters().component_writes;
  return UpdateAnswer::Accepted;
}

void ComponentUpdate::verify(SimDevice& device) {
  if (received_ != size_) return fail(mcc_error::kBadFormat);
  // mstflint sends the image with its magic pattern masked to 0xFF (FwExtract4MBImage with
  // maskMagicPatternAndDevToc): the firmware writes its format's pattern itself (FS3 shares
  // FS2's; FS4 has its own).
  if (std::all_of(magic_.begin(), magic_.end(), [](std::uint8_t b) { return b == 0xff; })) {
    const auto& pattern = device.info().image_format == ImageFormat::Fs4 ? fs4::kMagic : fs2::kMagic;
    for (std::size_t i = 0; i < pattern.size(); ++i)
      for (std::size_t j = 0; j < 4; ++j) magic_[4 * i + j] = static_cast<std::uint8_t>(pattern[i] >> (24 - 8 * j));
  }
  // The copy is checked where it lies, with the board's device data the flash holds (an FS3
  // component from mstflint ends before the device-data sections its ITOC points at): the boot
  // ROM's own rule (image/BootCopy) with the boot address at the new slot — the format's magic,
  // every section's CRC, a query.
  const auto flash = device.flash().contents();
  std::vector<std::uint8_t> after(flash.begin(), flash.end());
  std::copy(magic_.begin(), magic_.end(), after.begin() + static_cast<std::ptrdiff_t>(target_));
  if (device.info().image_format == ImageFormat::Fs3) {
    const std::uint64_t board_copy = pending_slot_.value_or(device.boot_state().booted_address);
    for (const auto& [at, entry] : adopted_device_entries(after, board_copy, target_)) {
      if (!device.firmware_program(static_cast<std::uint32_t>(at), entry)) return fail(mcc_error::kError);
      std::copy(entry.begin(), entry.end(), after.begin() + static_cast<std::ptrdiff_t>(at));
    }
  }
  const auto copy = find_boot_copy(device.info().image_format, after, target_);
  if (!copy || copy->start != target_) return fail(mcc_error::kBadFormat);
  const ImageQuery* query = &copy->query;
  const auto& hw_ids = query->supported_hw_ids;
  if (!hw_ids.empty() && std::find(hw_ids.begin(), hw_ids.end(), device.info().hw_id) == hw_ids.end())
    return fail(mcc_error::kNotApplicable);
  const BootState& boot = device.boot_state();
  if (boot.running && !boot.running->psid.empty() && query->psid != boot.running->psid)
    return fail(mcc_error::kNotApplicable);
  verified_ = *query;
  error_code_ = mcc_error::kOk;
  state_ = UpdateState::Locked;
}

void ComponentUpdate::activate(SimDevice& device) {
  // The copy that boots now: an earlier activated one, else the running one.
  const std::uint64_t old = pending_slot_.value_or(device.boot_state().booted_address);
  // Magic first (both copies boot), then the boot address, then the old copy's magic cleared.
  if (!device.firmware_program(static_cast<std::uint32_t>(target_), magic_)) return fail(mcc_error::kError);
  device.set_boot_address(target_);
  if (old != target_) {
    const std::array<std::uint8_t, kMagicBytes> zeros{};
    if (!device.firmware_program(static_cast<std::uint32_t>(old), zeros)) return fail(mcc_error::kError);
  }
  pending_ = verified_;
  pending_slot_ = target_;
  verified_.reset();
  error_code_ = mcc_error::kOk;
  state_ = UpdateState::Locked;
  ++device.firmware_counters().component_activations;
}

}  // namespace openflint::sim
