// FlashDriverOps: the byte-level operations of FlashDriver (read, erase, program, differential write).
#include <algorithm>
#include <array>
#include <string>

#include "core/HexString.h"
#include "core/Interrupt.h"
#include "devices/SpiOpcode.h"
#include "flash/FlashDriver.h"

// Designated initializers that leave members at their defaults are the point of these data
// records; GCC 12 -Wextra flags every omitted member, so that one warning is off here.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace openflint {
namespace {

constexpr std::uint32_t kMaxTransactionBytes = 16;
constexpr std::uint32_t kPageSize = 256;

std::uint32_t chunk_bytes(std::uint64_t remaining) {
  std::uint32_t n = 1;
  while (n * 2 <= kMaxTransactionBytes && n * 2 <= remaining) n *= 2;
  return n;
}

}  // namespace

// Aligned 16-byte array reads, each its own command (gateways without CS hold).
Result<void> FlashDriver::read_blocks(std::uint32_t address, std::span<std::uint8_t> out) {
  std::array<std::uint8_t, kMaxTransactionBytes> block{};
  const std::uint64_t end = std::uint64_t{address} + out.size();
  for (std::uint64_t at = address - address % kMaxTransactionBytes; at < end; at += kMaxTransactionBytes) {
    OF_TRY(run(Transaction{.opcode = spi::kRead, .addr_phase = true, .address = static_cast<std::uint32_t>(at),
                           .in = block}));
    const std::uint64_t from = std::max<std::uint64_t>(at, address);
    const std::uint64_t to = std::min<std::uint64_t>(at + kMaxTransactionBytes, end);
    std::copy(block.begin() + static_cast<std::ptrdiff_t>(from - at), block.begin() + static_cast<std::ptrdiff_t>(to - at),
              out.begin() + static_cast<std::ptrdiff_t>(from - address));
  }
  return {};
}

// One WREN + 16-byte page program (0xFF-padded, aligned) + WIP wait per block.
Result<void> FlashDriver::program_blocks(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  std::array<std::uint8_t, kMaxTransactionBytes> block{};
  const std::uint64_t end = std::uint64_t{address} + bytes.size();
  for (std::uint64_t at = address - address % kMaxTransactionBytes; at < end; at += kMaxTransactionBytes) {
    block.fill(0xff);
    const std::uint64_t from = std::max<std::uint64_t>(at, address);
    const std::uint64_t to = std::min<std::uint64_t>(at + kMaxTransactionBytes, end);
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

Result<void> FlashDriver::read_chain(std::uint32_t address, std::span<std::uint8_t> out) {
  if (bus_) return bus_->read(address, out);
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

Result<void> FlashDriver::read_into(std::uint64_t address, std::span<std::uint8_t> out,
                                    const FlashProgress& progress) {
  OF_TRY(check_range(address, out.size()));
  std::size_t done = 0;
  while (done < out.size()) {
    OF_TRY(check_interrupted());  // a safe point between page reads
    const auto here = static_cast<std::uint32_t>(address + done);
    const std::size_t n = std::min<std::size_t>(out.size() - done, kPageSize - (here % kPageSize));
    if (auto r = read_chain(here, out.subspan(done, n)); !r) {
      return make_error(std::move(r).error().with_context("reading flash at " + hex_string(here)));
    }
    done += n;
    if (progress) progress(done, out.size());
  }
  return {};
}

Result<std::vector<std::uint8_t>> FlashDriver::read(std::uint64_t address, std::uint64_t length,
                                                    const FlashProgress& progress) {
  OF_TRY(check_range(address, length));
  std::vector<std::uint8_t> out(static_cast<std::size_t>(length));
  OF_TRY(read_into(address, out, progress));
  return out;
}

Result<void> FlashDriver::erase_sector(std::uint64_t address) {
  const std::uint32_t size = sector_size();
  OF_TRY(check_range(address, size));
  if (address % size != 0) {
    return make_error(ErrorCode::InvalidArgument,
                      "erase address " + hex_string(address) + " is not aligned to " + hex_string(size));
  }
  if (bus_) return bus_->erase(static_cast<std::uint32_t>(address));
  const std::uint8_t opcode = chip_->min_erase_opcode(four_byte_);
  const std::string what = "erasing flash sector " + hex_string(address);
  OF_TRY_CTX(write_enable(), what);
  Transaction t{.opcode = opcode, .addr_phase = true, .address = static_cast<std::uint32_t>(address)};
  OF_TRY_CTX(run(t), what);
  return wait_ready(what);
}

Result<void> FlashDriver::program_page(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  if (bus_) return bus_->program(address, bytes);
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

Result<void> FlashDriver::program(std::uint64_t address, std::span<const std::uint8_t> bytes) {
  OF_TRY(check_range(address, bytes.size()));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto here = static_cast<std::uint32_t>(address + done);
    const std::size_t n = std::min<std::size_t>(bytes.size() - done, kPageSize - (here % kPageSize));
    OF_TRY(program_page(here, bytes.subspan(done, n)));
    done += n;
  }
  return {};
}

Result<void> FlashDriver::verify(std::uint32_t address, std::span<const std::uint8_t> expected) {
  std::vector<std::uint8_t> actual(expected.size());
  OF_TRY(read_into(address, actual));
  auto diff = std::mismatch(expected.begin(), expected.end(), actual.begin());
  if (diff.first == expected.end()) return {};
  const auto at = address + static_cast<std::uint32_t>(diff.first - expected.begin());
  return make_error(ErrorCode::Mismatch, "verify after write failed at " + hex_string(at) + ": wrote " +
                                             hex_string(*diff.first) + ", flash holds " +
                                             hex_string(*diff.second));
}

}  // namespace openflint
