// ParallelFlash: gateway bus cycles, GPIO bank select, the CFI query and the Intel / AMD command sets.
#include "flash/ParallelFlash.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "core/HexString.h"

namespace openflint {
namespace {

// Command-cycle addresses and bytes (docs/legacy-devices.md §4-5).
constexpr std::uint32_t kUnlock1 = 0x555;
constexpr std::uint32_t kUnlock2 = 0x2aa;
constexpr std::uint32_t kQueryAddr = 0x55;
constexpr std::uint8_t kIntelReadArray = 0xff, kIntelStatus = 0x70, kIntelClearStatus = 0x50;
constexpr std::uint8_t kIntelErase = 0x20, kIntelConfirm = 0xd0, kIntelProgram = 0x40, kIntelBuffer = 0xe8;
constexpr std::uint8_t kIntelReady = 0x80, kIntelErrors = 0x3e;
constexpr std::uint8_t kAmdReset = 0xf0, kCfiQuery = 0x98, kAmdProgram = 0xa0, kAmdBypass = 0x20;
constexpr std::uint8_t kAmdBypassExit1 = 0x90, kAmdBypassExit2 = 0x00;
constexpr std::uint32_t kMaxBuffer = 256;

class Deadline {
 public:
  explicit Deadline(std::chrono::milliseconds limit) : end_(std::chrono::steady_clock::now() + limit) {}
  // False once the time is up; past the first spins each poll yields the CPU.
  bool another_poll() {
    if (++polls_ > 256) std::this_thread::sleep_for(std::chrono::microseconds(50));
    return std::chrono::steady_clock::now() < end_;
  }
  [[nodiscard]] std::uint64_t polls() const { return polls_; }

 private:
  std::chrono::steady_clock::time_point end_;
  std::uint64_t polls_ = 0;
};

std::uint8_t byte_at(std::uint32_t word, std::uint32_t address) {
  return static_cast<std::uint8_t>(word >> (24 - 8 * (address % 4)));
}

}  // namespace

ParallelFlash::ParallelFlash(RegisterAccess& access, const FlashGatewayInfo& gateway, FlashTimeouts timeouts)
    : access_(&access), layout_(gateway.parallel), timeouts_(timeouts) {}

ParallelFlash::~ParallelFlash() {
  if (!gpios_saved_) return;
  // Best effort: a device that went away cannot be restored, and a destructor cannot report.
  (void)access_->write32(layout_.gpio_data_addr, saved_gpio_[0]);
  (void)access_->write32(layout_.gpio_dir_addr, saved_gpio_[1]);
  (void)access_->write32(layout_.gpio_pol_addr, saved_gpio_[2]);
  (void)access_->write32(layout_.gpio_mod_addr, saved_gpio_[3]);
}

Result<std::unique_ptr<ParallelFlash>> ParallelFlash::open(RegisterAccess& access, const FlashGatewayInfo& gateway,
                                                           FlashTimeouts timeouts) {
  std::unique_ptr<ParallelFlash> flash(new ParallelFlash(access, gateway, timeouts));
  OF_TRY_CTX(flash->setup_gpios(), "setting up the flash bus");
  OF_TRY(flash->query());
  OF_TRY(flash->reset_part());
  return flash;
}

Result<void> ParallelFlash::setup_gpios() {
  const std::array<std::uint32_t, 4> regs{layout_.gpio_data_addr, layout_.gpio_dir_addr, layout_.gpio_pol_addr,
                                          layout_.gpio_mod_addr};
  for (std::size_t i = 0; i < regs.size(); ++i) {
    OF_ASSIGN(saved_gpio_[i], access_->read32(regs[i]));
  }
  gpios_saved_ = true;
  const std::uint32_t mask = layout_.bank_mask();
  OF_TRY(access_->write32(layout_.gpio_dir_addr, saved_gpio_[1] | mask));
  OF_TRY(access_->write32(layout_.gpio_pol_addr, saved_gpio_[2] & ~mask));
  OF_TRY(access_->write32(layout_.gpio_mod_addr, saved_gpio_[3] & ~mask));
  OF_ASSIGN(const std::uint32_t cpumode, access_->read32(layout_.cpumode_addr));
  const std::uint32_t field = 3u << layout_.cpumode_shift;
  return access_->write32(layout_.cpumode_addr, (cpumode & ~field) | (1u << layout_.cpumode_shift));
}

Result<void> ParallelFlash::select_bank(std::uint32_t address) {
  const std::int64_t bank = address >> layout_.log2_bank_size;
  if (bank == bank_) return {};
  bank_ = -1;  // unknown until both writes went through
  OF_TRY(access_->write32(layout_.gpio_clear_addr, layout_.bank_mask()));
  OF_TRY(access_->write32(layout_.gpio_set_addr,
                          (static_cast<std::uint32_t>(bank) << layout_.bank_gpio_shift) & layout_.bank_mask()));
  bank_ = bank;
  return {};
}

Result<void> ParallelFlash::wait_idle(std::uint32_t* data) {
  // CMD and DATA are adjacent (CMD first), so one block read polls and, once the cycle is done,
  // brings the read cycle's data along: one round trip on costly transports.
  const bool adjacent = layout_.data_addr == layout_.cmd_addr + 4;
  std::array<std::uint32_t, 2> regs{};
  const auto start = std::chrono::steady_clock::now();
  for (std::uint32_t polls = 1;; ++polls) {
    if (data != nullptr && adjacent) {
      OF_TRY(access_->read_block(layout_.cmd_addr, regs));
    } else {
      OF_ASSIGN(regs[0], access_->read32(layout_.cmd_addr));
    }
    if ((regs[0] >> layout_.opcode_shift) == 0) {
      if (data == nullptr) return {};
      if (adjacent) {
        *data = regs[1];
        return {};
      }
      OF_ASSIGN(*data, access_->read32(layout_.data_addr));
      return {};
    }
    if (polls >= timeouts_.gateway_busy_polls && std::chrono::steady_clock::now() - start >= timeouts_.gateway_busy)
      return make_error(ErrorCode::Timeout, "parallel flash gateway stayed busy after " + std::to_string(polls) +
                                                " polls (CMD " + hex_string(regs[0]) + ")");
    if (polls > 256) std::this_thread::yield();
  }
}

std::uint32_t ParallelFlash::command(std::uint32_t opcode, std::uint32_t address) const {
  return (opcode << layout_.opcode_shift) | (address & layout_.offset_mask());
}

Result<std::uint32_t> ParallelFlash::read4(std::uint32_t address) {
  OF_TRY(select_bank(address));
  OF_TRY(access_->write32(layout_.cmd_addr, command(layout_.read4_opcode, address & ~3u)));
  std::uint32_t data = 0;
  OF_TRY(wait_idle(&data));
  return data;
}

Result<void> ParallelFlash::write1(std::uint32_t address, std::uint8_t value) {
  OF_TRY(select_bank(address));
  // DATA then CMD in one write_sequence (one SET MAD in-band); every cycle is polled to done
  // before the next is written, as the vendor's tools do (docs/legacy-devices.md §2).
  const std::array<RegisterWrite, 2> writes{RegisterWrite{layout_.data_addr, std::uint32_t{value} << 24},
                                            RegisterWrite{layout_.cmd_addr, command(layout_.write1_opcode, address)}};
  OF_TRY(access_->write_sequence(writes));
  return wait_idle(nullptr);
}

Result<void> ParallelFlash::query() {
  OF_TRY(write1(kQueryAddr, 0xff));
  OF_TRY(write1(kQueryAddr, kCfiQuery));
  // x8 part: "QRY" at 0x10..0x12; x16 part in x8 mode: at 0x20, 0x22, 0x24 (every offset doubled).
  OF_ASSIGN(const std::uint32_t at10, read4(0x10));
  std::uint32_t stride = 0;
  if ((at10 >> 8) == 0x515259) {
    stride = 1;
  } else {
    OF_ASSIGN(const std::uint32_t at20, read4(0x20));
    OF_ASSIGN(const std::uint32_t at24, read4(0x24));
    if (byte_at(at20, 0) == 'Q' && byte_at(at20, 2) == 'R' && byte_at(at24, 0) == 'Y') stride = 2;
  }
  if (stride == 0) return make_error(ErrorCode::NotFound, "no parallel flash answered the CFI query (no \"QRY\")");
  std::vector<std::uint8_t> raw(0x40 * stride);
  for (std::uint32_t a = 0; a < raw.size(); a += 4) {
    OF_ASSIGN(const std::uint32_t w, read4(a));
    for (std::uint32_t i = 0; i < 4; ++i) raw[a + i] = byte_at(w, i);
  }
  const auto cfi = [&](std::uint32_t offset) { return raw[offset * stride]; };
  const auto cfi16 = [&](std::uint32_t offset) { return std::uint32_t{cfi(offset)} | (std::uint32_t{cfi(offset + 1)} << 8); };
  const std::uint32_t command_set = cfi16(0x13);
  if (command_set != 1 && command_set != 2)
    return make_error(ErrorCode::NotSupported, "CFI command set " + std::to_string(command_set) +
                                                   " is neither Intel/Sharp (1) nor AMD/Fujitsu (2)");
  if (cfi(0x27) < 16 || cfi(0x27) > 22)
    return make_error(ErrorCode::NotSupported, "CFI device size 2^" + std::to_string(cfi(0x27)) +
                                                   " bytes: the gateway's banks reach 4 MiB");
  const std::uint64_t size = std::uint64_t{1} << cfi(0x27);
  if (cfi(0x2c) != 1)
    return make_error(ErrorCode::NotSupported, "CFI lists " + std::to_string(cfi(0x2c)) +
                                                   " erase regions; only uniform-sector parts are driven");
  const std::uint64_t blocks = cfi16(0x2d) + 1ull;
  const std::uint32_t block_size = cfi16(0x2f) * 256u;
  if (blocks * block_size != size)
    return make_error(ErrorCode::InvalidArgument, "CFI geometry " + std::to_string(blocks) + " x " +
                                                      std::to_string(block_size) + " does not make the " +
                                                      std::to_string(size) + "-byte device");
  const std::uint32_t buffer = cfi16(0x2a) == 0 ? 0 : 1u << cfi16(0x2a);
  if (buffer > kMaxBuffer)
    return make_error(ErrorCode::NotSupported, "CFI write buffer of " + std::to_string(buffer) + " bytes");
  OF_ASSIGN(chip_, find_flash_chip_by_cfi(static_cast<std::uint8_t>(command_set), size, block_size));
  buffer_size_ = buffer;
  return {};
}

Result<void> ParallelFlash::reset_part() {
  return write1(kUnlock1, intel() ? kIntelReadArray : kAmdReset);
}

Result<void> ParallelFlash::read(std::uint32_t address, std::span<std::uint8_t> out) {
  const std::uint32_t end = address + static_cast<std::uint32_t>(out.size());
  for (std::uint32_t at = address & ~3u; at < end; at += 4) {
    OF_ASSIGN(const std::uint32_t w, read4(at));
    for (std::uint32_t i = 0; i < 4; ++i) {
      if (at + i >= address && at + i < end) out[at + i - address] = byte_at(w, i);
    }
  }
  return {};
}

Result<std::uint8_t> ParallelFlash::read_status() {
  if (!intel()) return std::uint8_t{kIntelReady};  // AMD parts report through data polling only
  OF_TRY(write1(0, kIntelStatus));
  OF_ASSIGN(const std::uint32_t w, read4(0));
  OF_TRY(write1(0, kIntelReadArray));
  return byte_at(w, 0);
}

Result<void> ParallelFlash::erase(std::uint32_t address) {
  const std::string what = "erasing flash block " + hex_string(address);
  OF_TRY_CTX(intel() ? intel_erase(address) : amd_erase(address), what);
  return {};
}

Result<void> ParallelFlash::program(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  if (!intel()) return amd_program(address, bytes);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto here = address + static_cast<std::uint32_t>(done);
    Result<void> r;
    std::size_t n = 1;
    if (buffer_size_ != 0) {
      n = std::min<std::size_t>(bytes.size() - done, buffer_size_ - here % buffer_size_);
      r = intel_program_buffer(here, bytes.subspan(done, n));
    } else if (bytes[done] != 0xff) {  // an erased byte needs no program
      r = intel_program_byte(here, bytes[done]);
    }
    if (!r) return make_error(std::move(r).error().with_context("programming flash at " + hex_string(here)));
    done += n;
  }
  return {};
}

// --- AMD / Fujitsu -------------------------------------------------------------------------

Result<void> ParallelFlash::amd_wait(std::uint32_t address, std::uint32_t mask, std::uint32_t expected,
                                     std::chrono::milliseconds limit, const char* what) {
  for (Deadline d(limit);;) {
    OF_ASSIGN(const std::uint32_t w, read4(address & ~3u));
    if ((w & mask) == expected) return {};
    if (!d.another_poll())
      return make_error(ErrorCode::Timeout, std::string(what) + ": the part did not finish after " +
                                                std::to_string(d.polls()) + " data polls (read " + hex_string(w) +
                                                ", want " + hex_string(expected) + " under " + hex_string(mask) + ")");
  }
}

Result<void> ParallelFlash::amd_unlock(std::uint32_t address, std::uint8_t command) {
  // The unlock cycles go to whatever bank is selected; select the target's first so they do not
  // switch banks between the command and the data cycle.
  OF_TRY(select_bank(address));
  const std::uint32_t bank_base = address & ~layout_.offset_mask();
  OF_TRY(write1(bank_base | kUnlock1, 0xaa));
  OF_TRY(write1(bank_base | kUnlock2, 0x55));
  return write1(bank_base | kUnlock1, command);
}

Result<void> ParallelFlash::amd_program_byte(std::uint32_t address, std::uint8_t value, bool bypass) {
  if (bypass) {
    OF_TRY(write1(address, kAmdProgram));
  } else {
    OF_TRY(amd_unlock(address, kAmdProgram));
  }
  OF_TRY(write1(address, value));
  const std::uint32_t shift = 24 - 8 * (address % 4);
  // Data polling by comparison: the byte reads back as written once the part is done.
  return amd_wait(address, 0xffu << shift, std::uint32_t{value} << shift, timeouts_.write_in_progress,
                  "byte program");
}

Result<void> ParallelFlash::amd_program(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  const auto first = std::find_if(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b != 0xff; });
  if (first == bytes.end()) return {};  // erased bytes need no program
  // Unlock bypass (docs/legacy-devices.md §4): one unlock for the whole span, then 0xA0 + data per
  // byte (2 bus cycles instead of 4); 0x90, 0x00 leave it, also after a failure.
  const auto start = address + static_cast<std::uint32_t>(first - bytes.begin());
  OF_TRY_CTX(amd_unlock(start, kAmdBypass), "entering unlock bypass at " + hex_string(start));
  Result<void> result;
  for (std::size_t i = static_cast<std::size_t>(first - bytes.begin()); i < bytes.size() && result; ++i) {
    if (bytes[i] == 0xff) continue;
    const auto here = address + static_cast<std::uint32_t>(i);
    if (auto r = amd_program_byte(here, bytes[i], true); !r)
      result = make_error(std::move(r).error().with_context("programming flash at " + hex_string(here)));
  }
  auto left = write1(start, kAmdBypassExit1);
  if (left) left = write1(start, kAmdBypassExit2);
  if (!result) {
    (void)reset_part();  // best effort; the program error is the one to report
    return result;
  }
  if (!left) return make_error(std::move(left).error().with_context("leaving unlock bypass"));
  return {};
}

Result<void> ParallelFlash::amd_erase(std::uint32_t address) {
  // Zero the block's first dword first, so the poll below cannot mistake an already erased
  // block (or a part that ignored the erase) for a finished one.
  for (std::uint32_t i = 0; i < 4; ++i) OF_TRY(amd_program_byte(address + i, 0, false));
  const std::uint32_t bank_base = address & ~layout_.offset_mask();
  OF_TRY(select_bank(address));
  for (const auto& [at, value] : std::array<std::pair<std::uint32_t, std::uint8_t>, 5>{
           {{kUnlock1, 0xaa}, {kUnlock2, 0x55}, {kUnlock1, 0x80}, {kUnlock1, 0xaa}, {kUnlock2, 0x55}}})
    OF_TRY(write1(bank_base | at, value));
  OF_TRY(write1(address, 0x30));
  return amd_wait(address, 0xffffffffu, 0xffffffffu, timeouts_.write_in_progress, "sector erase");
}

// --- Intel / Sharp -------------------------------------------------------------------------

Result<std::uint8_t> ParallelFlash::intel_wait(std::uint32_t address, std::chrono::milliseconds limit,
                                               const char* what) {
  for (Deadline d(limit);;) {
    OF_ASSIGN(const std::uint32_t w, read4(address & ~3u));
    const std::uint8_t status = byte_at(w, 0);  // in status mode every byte is the status
    if ((status & kIntelReady) != 0) return status;
    if (!d.another_poll())
      return make_error(ErrorCode::Timeout, std::string(what) + ": status not ready after " +
                                                std::to_string(d.polls()) + " polls (status " + hex_string(status) + ")");
  }
}

Result<void> ParallelFlash::intel_check(std::uint8_t status, std::uint32_t address, const char* what) {
  if ((status & kIntelErrors) == 0) return write1(address, kIntelReadArray);
  OF_TRY(write1(address, kIntelClearStatus));
  OF_TRY(write1(address, kIntelReadArray));
  const char* why = (status & 0x02) != 0 ? " (block locked)" : "";
  return make_error(ErrorCode::Io, std::string(what) + " failed: status " + hex_string(status) + why);
}

Result<void> ParallelFlash::intel_erase(std::uint32_t address) {
  OF_TRY(write1(address, kIntelErase));
  OF_TRY(write1(address, kIntelConfirm));
  OF_ASSIGN(const std::uint8_t status, intel_wait(address, timeouts_.write_in_progress, "block erase"));
  return intel_check(status, address, "block erase");
}

Result<void> ParallelFlash::intel_program_byte(std::uint32_t address, std::uint8_t value) {
  OF_TRY(write1(address, kIntelProgram));
  OF_TRY(write1(address, value));
  OF_ASSIGN(const std::uint8_t status, intel_wait(address, timeouts_.write_in_progress, "byte program"));
  return intel_check(status, address, "byte program");
}

Result<void> ParallelFlash::intel_program_buffer(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  if (std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0xff; })) return {};
  // The whole buffer window, padded with 0xFF, so every write lands inside it.
  const std::uint32_t base = address / buffer_size_ * buffer_size_;
  std::vector<std::uint8_t> window(buffer_size_, 0xff);
  std::copy(bytes.begin(), bytes.end(), window.begin() + (address - base));
  for (Deadline d(timeouts_.write_in_progress);;) {  // the buffer is free when bit 7 reads set
    OF_TRY(write1(base, kIntelBuffer));
    OF_ASSIGN(const std::uint32_t w, read4(base));
    if ((byte_at(w, 0) & kIntelReady) != 0) break;
    if (!d.another_poll())
      return make_error(ErrorCode::Timeout, "write buffer never became available (status " +
                                                hex_string(byte_at(w, 0)) + ")");
  }
  OF_TRY(write1(base, static_cast<std::uint8_t>(buffer_size_ - 1)));
  for (std::uint32_t i = 0; i < buffer_size_; ++i) OF_TRY(write1(base + i, window[i]));
  OF_TRY(write1(base, kIntelConfirm));
  OF_ASSIGN(const std::uint8_t status, intel_wait(base, timeouts_.write_in_progress, "buffered program"));
  return intel_check(status, base, "buffered program");
}

}  // namespace openflint
