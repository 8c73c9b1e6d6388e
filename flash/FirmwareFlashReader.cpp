// FirmwareFlashReader: MFPA probe and MFBA block reads.
#include "flash/FirmwareFlashReader.h"

#include <bit>
#include <string>
#include <vector>

#include "core/BigEndianFields.h"
#include "core/HexString.h"
#include "core/Interrupt.h"
#include "mtcr/registers/FirmwareFlashRegisters.h"

namespace openflint {
namespace {

constexpr std::size_t kMfpaBytes = 0x20;
constexpr std::size_t kMinBlock = 4;

}  // namespace

Result<FirmwareFlashReader> FirmwareFlashReader::open(RegisterPort& port) {
  const std::size_t room = port.max_register_bytes();
  if (room < flash_reg::kMfbaHeaderBytes + kMinBlock || room < kMfpaBytes)
    return make_error(ErrorCode::NotSupported, "the register channel is too small for firmware flash access");
  OF_ASSIGN(const AccessRegisterTlv mfpa, port.query(flash_reg::kMfpa, std::vector<std::uint8_t>(kMfpaBytes, 0)));
  if (mfpa.status != 0 || mfpa.data.size() < kMfpaBytes)
    return make_error(ErrorCode::NotSupported, "the firmware offers no flash access (MFPA status " +
                                                   hex_string(mfpa.status) + ")");
  const std::uint32_t flashes = be::get32(mfpa.data.data(), 0x10) & 0xf;
  if (flashes == 0) return make_error(ErrorCode::NotFound, "the firmware reports no flash (MFPA flash_num 0)");
  const std::uint32_t raw = be::get32(mfpa.data.data(), 0x14) & 0xffffff;  // capacity, type, manufacturer
  const std::uint32_t jedec = (raw & 0xff) << 16 | (raw >> 8 & 0xff) << 8 | (raw >> 16 & 0xff);
  OF_ASSIGN_CTX(const FlashChip* chip, find_flash_chip_by_jedec(jedec), "the flash the firmware reports (MFPA)");
  const std::size_t fits = std::min(room - flash_reg::kMfbaHeaderBytes, flash_reg::kMfbaMaxData);
  return FirmwareFlashReader(port, *chip, std::bit_floor(fits));
}

Result<void> FirmwareFlashReader::read_into(std::uint64_t address, std::span<std::uint8_t> out,
                                            const FlashProgress& progress) {
  if (address + out.size() > size())
    return make_error(ErrorCode::InvalidArgument, "read of " + hex_string(out.size()) + " bytes at " +
                                                      hex_string(address) + " is beyond the flash");
  std::size_t done = 0;
  while (done < out.size()) {
    OF_TRY(check_interrupted());  // a safe point between block reads
    const std::uint64_t at = address + done;
    const std::size_t n = std::min(out.size() - done, block_ - static_cast<std::size_t>(at % block_));
    std::vector<std::uint8_t> data(flash_reg::kMfbaHeaderBytes + (n + 3) / 4 * 4, 0);
    be::put32(data.data(), 0x04, static_cast<std::uint32_t>(n));
    be::put32(data.data(), 0x08, static_cast<std::uint32_t>(at));
    OF_ASSIGN(const AccessRegisterTlv answer, port_->query(flash_reg::kMfba, std::move(data)));
    if (answer.status != 0 || answer.data.size() < flash_reg::kMfbaHeaderBytes + n)
      return make_error(ErrorCode::Io, "the firmware did not read the flash at " + hex_string(at) +
                                           " (MFBA status " + hex_string(answer.status) + ")");
    flash_reg::wire_to_flash_bytes(std::span(answer.data).subspan(flash_reg::kMfbaHeaderBytes), out.subspan(done, n));
    done += n;
    if (progress) progress(done, out.size());
  }
  return {};
}

}  // namespace openflint
