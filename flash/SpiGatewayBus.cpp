// SpiGatewayBus: the SPI command set over a flash gateway's ADDR, DATA and CMD registers.
#include "flash/SpiGatewayBus.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <string>
#include <thread>

#include "core/HexString.h"
#include "devices/SpiOpcode.h"

// Designated initializers that leave members at their defaults are the point of these data
// records; GCC 12 -Wextra flags every omitted member, so that one warning is off here.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace openflint {
namespace {

constexpr std::size_t kMaxPollDwords = 64;  // CMD .. the end of DATA, read as one block

std::uint32_t log2_of(std::uint32_t n) {
  std::uint32_t l = 0;
  while ((1u << l) < n) ++l;
  return l;
}

// The wait for the gateway's BUSY to clear: FlashTimeouts::gateway_busy_polls reads and at
// least FlashTimeouts::gateway_busy of time, whichever ends later. A CMD that reads all ones is
// no command this driver writes (bits [29:24] stay clear) but a device that does not answer: gone
// from the bus, powered off behind the 0x58 window, a BAR server whose model refused the
// command. The time floor is for a live gateway whose server is descheduled, so such a wait
// ends after kAllOnesPolls reads in a row instead (enough to ride out a transient all-ones read).
class BusyWait {
 public:
  static constexpr std::uint64_t kSpinPolls = 256;
  static constexpr std::uint64_t kAllOnesPolls = 256;

  explicit BusyWait(const FlashTimeouts& t) : timeouts_(t), start_(std::chrono::steady_clock::now()) {}
  // Counts the poll just made, which read `cmd`; false when the wait is over. Past kSpinPolls
  // each poll yields the CPU first: a device model serving the gateway on this same CPU (a
  // simulated BAR on a loaded machine) then runs at once instead of after this thread's time
  // slice (~3 ms per command, measured); a real device never notices.
  bool another_poll(std::uint32_t cmd) {
    all_ones_ = cmd == kNoAnswer ? all_ones_ + 1 : 0;
    if (all_ones_ >= kAllOnesPolls) return false;
    if (++polls_ >= kSpinPolls) std::this_thread::yield();
    if (polls_ < timeouts_.gateway_busy_polls) return true;
    return std::chrono::steady_clock::now() - start_ < timeouts_.gateway_busy;
  }
  [[nodiscard]] Unexpected timeout() const {
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_);
    const std::string where = std::to_string(polls_) + " polls (" + std::to_string(waited.count()) + " ms)";
    if (all_ones_ >= kAllOnesPolls)
      return make_error(ErrorCode::Timeout, "flash gateway stayed busy after " + where + ": CMD reads " +
                                                hex_string(kNoAnswer) + ", the device does not answer");
    return make_error(ErrorCode::Timeout, "flash gateway stayed busy after " + where);
  }

 private:
  static constexpr std::uint32_t kNoAnswer = 0xffffffff;
  const FlashTimeouts& timeouts_;
  std::chrono::steady_clock::time_point start_;
  std::uint64_t polls_ = 0;
  std::uint64_t all_ones_ = 0;  // consecutive polls that read kNoAnswer
};


std::uint32_t chunk_bytes(std::uint64_t remaining) {
  std::uint32_t n = 1;
  while (n * 2 <= kMaxSpiTransactionBytes && n * 2 <= remaining) n *= 2;
  return n;
}


// The firmware replaces a flash cache line while the guard's offset or command field is set
// (mstflint check_cache_replacement_gaurd): the gateway is then the firmware's.
Result<void> check_cache_replacement(RegisterAccess& access, const CacheReplacementGuard& guard,
                                     CacheReplacement policy) {
  if (!guard.present()) return {};
  OF_ASSIGN(const std::uint32_t offset, access.read32(guard.offset_addr));
  OF_ASSIGN(const std::uint32_t cmd, access.read32(guard.cmd_addr));
  if ((offset & guard.offset_mask) == 0 && (cmd & guard.cmd_mask) == 0) return {};
  if (policy == CacheReplacement::Override) return access.write32(guard.trigger_addr, 0);
  return make_error(ErrorCode::Busy,
                    "the firmware is replacing a flash cache line (cache-replacement offset " +
                        hex_string(offset & guard.offset_mask) + ", command " + hex_string(cmd & guard.cmd_mask) +
                        "): driving the flash gateway now could corrupt what it reads; override with --ocr "
                        "(mstflint -override_cache_replacement)");
}

}  // namespace

Result<std::unique_ptr<SpiGatewayBus>> SpiGatewayBus::open(RegisterAccess& access, const FlashGatewayInfo& gateway,
                                                           FlashTimeouts timeouts, CacheReplacement cache) {
  std::unique_ptr<SpiGatewayBus> bus(new SpiGatewayBus(access, gateway, timeouts));
  OF_TRY_CTX(check_cache_replacement(access, gateway.cache_guard, cache), "checking the cache-replacement guard");
  if (gateway.chip_select_support_addr != 0) {  // the chip selects the board wires
    const std::uint32_t mask = (1u << gateway.flash_banks) - 1;
    OF_TRY_CTX(access.write32(gateway.chip_select_support_addr, mask), "enabling the flash chip selects");
  }
  if (gateway.bank_select_addr != 0) {  // one chip: bank 0
    OF_TRY_CTX(access.write32(gateway.bank_select_addr, 0), "selecting flash bank 0");
  }
  OF_TRY_CTX(bus->probe(), "probing the flash");
  return bus;
}

Result<void> SpiGatewayBus::probe_signature() {
  std::array<std::uint8_t, 4> answer{};  // 3 dummy bytes, then the signature
  OF_TRY(run(Transaction{.opcode = spi::kReadSignature, .in = answer}));
  const std::uint8_t signature = answer[3];
  if (signature == 0 || signature == 0xff) {
    return make_error(ErrorCode::NotFound, "no flash answered (electronic signature " + hex_string(signature) + ")");
  }
  OF_ASSIGN(chip_, find_flash_chip_by_electronic_signature(signature));
  jedec_id_ = chip_->jedec_id;  // the catalog's id of the part the signature names
  return {};
}

Result<void> SpiGatewayBus::probe() {
  if (gateway_.chip_probe == FlashChipProbe::ElectronicSignature) {
    OF_TRY(probe_signature());
  } else {
    std::array<std::uint8_t, 4> id{};
    OF_TRY(run(Transaction{.opcode = spi::kReadJedecId, .in = id}));
    jedec_id_ = (std::uint32_t{id[0]} << 16) | (std::uint32_t{id[1]} << 8) | id[2];
    if (jedec_id_ == 0 || jedec_id_ == 0xffffff) {
      return make_error(ErrorCode::NotFound, "no flash answered (jedec id " + hex_string(jedec_id_) + ")");
    }
    OF_ASSIGN(chip_, find_flash_chip_by_jedec(jedec_id_));
  }
  four_byte_ = chip_->needs_4byte_address();
  if (four_byte_ && !gateway_.supports_4byte_address) {
    return make_error(ErrorCode::NotSupported, std::string(chip_->name) +
                                                   " needs 4-byte addressing, which this gateway lacks");
  }
  return {};
}

std::uint32_t SpiGatewayBus::command_word(const Transaction& t, std::uint32_t data_bytes) const {
  const GatewayLayout& l = gateway_.layout;
  std::uint32_t cmd = 1u << l.busy_bit;
  if (gateway_.lock == FlashLockKind::CmdBit31) cmd |= 1u << l.lock_bit;  // keep our lock
  if (gateway_.needs_flash_enable) cmd |= 1u << l.flash_enable_bit;
  if (t.cmd_phase) cmd |= (1u << l.cmd_phase_bit) | (std::uint32_t{t.opcode} << l.opcode_shift);
  if (t.addr_phase) {
    cmd |= 1u << l.addr_phase_bit;
    if (four_byte_) cmd |= 1u << l.addr4_bit;
  }
  if (data_bytes > 0) {
    const std::uint32_t size = l.data_size_is_log2 ? log2_of(data_bytes) : data_bytes;
    cmd |= (1u << l.data_phase_bit) | (size << l.data_size_shift);
    if (!t.in.empty()) cmd |= 1u << l.read_op_bit;
  }
  if (t.cs_hold) cmd |= 1u << l.cs_hold_bit;
  return cmd;
}

// Special style: SPECIAL + opcode in ADDR[31:24] for every command but array reads, which are
// plain READ_OP commands; NO_ADDR / NO_DATA for the phases a command lacks.
std::uint32_t SpiGatewayBus::special_command_word(const Transaction& t, std::uint32_t data_bytes,
                                                std::uint32_t& addr_word) const {
  const GatewayLayout& l = gateway_.layout;
  const std::uint32_t address = t.address & ((1u << l.addr_opcode_shift) - 1);
  std::uint32_t cmd = 1u << l.busy_bit;
  if (t.opcode == spi::kRead && t.addr_phase && !t.in.empty()) {
    addr_word = address;
  } else {
    cmd |= 1u << l.special_bit;
    addr_word = (std::uint32_t{t.opcode} << l.addr_opcode_shift) | (t.addr_phase ? address : 0);
    if (!t.addr_phase) cmd |= 1u << l.no_addr_bit;
  }
  if (data_bytes == 0) return cmd | (1u << l.no_data_bit);
  cmd |= log2_of(data_bytes) << l.data_size_shift;
  if (!t.in.empty()) cmd |= 1u << l.read_op_bit;
  return cmd;
}

Result<void> SpiGatewayBus::run(const Transaction& t) {
  const auto data_bytes = static_cast<std::uint32_t>(std::max(t.in.size(), t.out.size()));
  if (data_bytes > kMaxSpiTransactionBytes || (data_bytes & (data_bytes - 1)) != 0) {
    return make_error(ErrorCode::Internal, "gateway transaction of " + std::to_string(data_bytes) + " bytes");
  }
  if (special() && (t.cs_hold || !t.cmd_phase)) {
    return make_error(ErrorCode::Internal, "chained transaction on a gateway without chip-select hold");
  }
  std::uint32_t addr_word = t.address;
  const std::uint32_t cmd = special() ? special_command_word(t, data_bytes, addr_word) : command_word(t, data_bytes);
  const std::uint32_t dwords = (data_bytes + 3) / 4;
  std::array<std::uint32_t, 4> words{};
  // ADDR, DATA, then CMD (which starts the transaction) as one ordered sequence: one round
  // trip over MADs, plain writes elsewhere.
  std::array<RegisterWrite, 6> seq{};
  std::size_t n = 0;
  if (t.addr_phase || special()) seq[n++] = {gateway_.addr_addr, addr_word};
  if (!t.out.empty()) {
    for (std::uint32_t i = 0; i < t.out.size(); ++i) {
      words[i / 4] |= std::uint32_t{t.out[i]} << (24 - 8 * (i % 4));
    }
    for (std::uint32_t i = 0; i < dwords; ++i) seq[n++] = {gateway_.data_addr + 4 * i, words[i]};
  }
  seq[n++] = {gateway_.cmd_addr, cmd};
  // The first poll goes with the writes (one lock hold on the PCI VSEC): CMD..DATA when the
  // transport moves that span in one round trip, else CMD alone and DATA after BUSY clears.
  const std::size_t combined = t.in.empty() ? 0 : combined_poll_dwords(dwords);
  std::array<std::uint32_t, kMaxPollDwords> block{};
  const auto polled = std::span(block.data(), combined != 0 ? combined : 1);
  OF_TRY(access_.write_then_read(std::span<const RegisterWrite>(seq.data(), n), gateway_.cmd_addr, polled));
  OF_TRY(wait_gateway(polled));
  if (combined != 0) {
    std::copy_n(block.begin() + static_cast<std::ptrdiff_t>((gateway_.data_addr - gateway_.cmd_addr) / 4), dwords,
                words.begin());
  } else if (!t.in.empty()) {
    OF_TRY(access_.read_block(gateway_.data_addr, std::span(words.data(), dwords)));
  }
  if (!t.in.empty()) {
    for (std::uint32_t i = 0; i < t.in.size(); ++i) {
      t.in[i] = static_cast<std::uint8_t>(words[i / 4] >> (24 - 8 * (i % 4)));
    }
  }
  return {};
}

std::size_t SpiGatewayBus::combined_poll_dwords(std::uint32_t data_dwords) const {
  // CMD and the DATA window in one block read: the busy bit and the data in one round trip.
  // Worth it only on transports that move several dwords per round trip (MADs: 48-56).
  if (gateway_.data_addr <= gateway_.cmd_addr) return 0;
  const std::size_t span = (gateway_.data_addr - gateway_.cmd_addr) / 4 + data_dwords;
  return span <= access_.max_block_dwords() && span <= kMaxPollDwords ? span : 0;
}

// `polled` holds the last read from CMD on (its first dword CMD); read again until BUSY clears.
Result<void> SpiGatewayBus::wait_gateway(std::span<std::uint32_t> polled) {
  for (BusyWait wait(timeouts_);;) {
    if (((polled[0] >> gateway_.layout.busy_bit) & 1u) == 0) return {};
    if (!wait.another_poll(polled[0])) return wait.timeout();
    OF_TRY(access_.read_block(gateway_.cmd_addr, polled));
  }
}

Result<std::uint8_t> SpiGatewayBus::read_status() {
  std::array<std::uint8_t, 4> status{};  // Special style reads a dword, the status in its last byte
  const std::size_t n = special() ? status.size() : 1;
  OF_TRY(run(Transaction{.opcode = spi::kReadStatus, .in = std::span(status).first(n)}));
  return status[n - 1];
}

Result<void> SpiGatewayBus::wait_ready(std::string_view what) {
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t polls = 0;; ++polls) {
    OF_ASSIGN(std::uint8_t status, read_status());
    if ((status & spi::kStatusWip) == 0) return {};
    const auto waited = std::chrono::steady_clock::now() - start;
    if (waited >= timeouts_.write_in_progress) {
      return make_error(ErrorCode::Timeout,
                        std::string(what) + ": flash still busy (WIP) after " +
                            std::to_string(timeouts_.write_in_progress.count()) + " ms, " +
                            std::to_string(polls + 1) + " status polls");
    }
    if (polls >= 256) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

Result<void> SpiGatewayBus::write_enable() {
  return run(Transaction{.opcode = spi::kWriteEnable});
}

// Aligned 16-byte array reads, each its own command (gateways without CS hold).
Result<void> SpiGatewayBus::read_blocks(std::uint32_t address, std::span<std::uint8_t> out) {
  std::array<std::uint8_t, kMaxSpiTransactionBytes> block{};
  const std::uint64_t end = std::uint64_t{address} + out.size();
  for (std::uint64_t at = address - address % kMaxSpiTransactionBytes; at < end; at += kMaxSpiTransactionBytes) {
    OF_TRY(run(Transaction{.opcode = spi::kRead, .addr_phase = true, .address = static_cast<std::uint32_t>(at),
                           .in = block}));
    const std::uint64_t from = std::max<std::uint64_t>(at, address);
    const std::uint64_t to = std::min<std::uint64_t>(at + kMaxSpiTransactionBytes, end);
    std::copy(block.begin() + static_cast<std::ptrdiff_t>(from - at), block.begin() + static_cast<std::ptrdiff_t>(to - at),
              out.begin() + static_cast<std::ptrdiff_t>(from - address));
  }
  return {};
}

// One WREN + 16-byte page program (0xFF-padded, aligned) + WIP wait per block.
Result<void> SpiGatewayBus::program_blocks(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  std::array<std::uint8_t, kMaxSpiTransactionBytes> block{};
  const std::uint64_t end = std::uint64_t{address} + bytes.size();
  for (std::uint64_t at = address - address % kMaxSpiTransactionBytes; at < end; at += kMaxSpiTransactionBytes) {
    block.fill(0xff);
    const std::uint64_t from = std::max<std::uint64_t>(at, address);
    const std::uint64_t to = std::min<std::uint64_t>(at + kMaxSpiTransactionBytes, end);
    std::copy(bytes.begin() + static_cast<std::ptrdiff_t>(from - address), bytes.begin() + static_cast<std::ptrdiff_t>(to - address),
              block.begin() + static_cast<std::ptrdiff_t>(from - at));
    if (std::all_of(block.begin(), block.end(), [](std::uint8_t b) { return b == 0xff; })) continue;
    const std::string what = "programming flash at " + hex_string(at);
    OF_TRY_CTX(write_enable(), what);
    Transaction t{.opcode = spi::kPageProgram, .addr_phase = true, .address = static_cast<std::uint32_t>(at), .out = block};
    OF_TRY_CTX(run(t), what);
    OF_TRY(wait_ready(what));
  }
  return {};
}

Result<void> SpiGatewayBus::read(std::uint32_t address, std::span<std::uint8_t> out) {
  if (special()) return read_blocks(address, out);
  // One READ command, continued with data-only transactions while CS is held.
  std::size_t done = 0;
  while (done < out.size()) {
    const std::uint32_t n = chunk_bytes(out.size() - done);
    Transaction t{.opcode = four_byte_ ? spi::kRead4 : spi::kRead,
                  .cmd_phase = done == 0,
                  .addr_phase = done == 0,
                  .cs_hold = done + n < out.size(),
                  .address = address,
                  .in = out.subspan(done, n)};
    OF_TRY(run(t));
    done += n;
  }
  return {};
}

Result<void> SpiGatewayBus::erase(std::uint32_t address) {
  const std::uint8_t opcode = chip_->min_erase_opcode(four_byte_);
  const std::string what = "erasing flash sector " + hex_string(address);
  OF_TRY_CTX(write_enable(), what);
  Transaction t{.opcode = opcode, .addr_phase = true, .address = address};
  OF_TRY_CTX(run(t), what);
  return wait_ready(what);
}

Result<void> SpiGatewayBus::program(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  if (special()) return program_blocks(address, bytes);
  const std::string what = "programming flash at " + hex_string(address);
  OF_TRY_CTX(write_enable(), what);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const std::uint32_t n = chunk_bytes(bytes.size() - done);
    Transaction t{.opcode = four_byte_ ? spi::kPageProgram4 : spi::kPageProgram,
                  .cmd_phase = done == 0,
                  .addr_phase = done == 0,
                  .cs_hold = done + n < bytes.size(),
                  .address = address,
                  .out = bytes.subspan(done, n)};
    OF_TRY_CTX(run(t), what);
    done += n;
  }
  return wait_ready(what);
}


}  // namespace openflint
