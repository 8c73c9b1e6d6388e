// FirmwareFlashBus: MFBA writes and MFBE erases (layouts: mft-internals §4.2), reads through FirmwareFlashReader.
#include "flash/FirmwareFlashBus.h"

#include <bit>
#include <string>
#include <vector>

#include "core/BigEndianFields.h"
#include "core/HexString.h"
#include "mtcr/registers/FirmwareFlashRegisters.h"

namespace openflint {
namespace {

Result<std::uint32_t> sector_size_reported(RegisterPort& port) {
  OF_ASSIGN(const AccessRegisterTlv mfpa, port.query(flash_reg::kMfpa, std::vector<std::uint8_t>(flash_reg::kMfpaBytes, 0)));
  if (mfpa.status != 0 || mfpa.data.size() < flash_reg::kMfpaBytes)
    return make_error(ErrorCode::NotSupported, "the firmware offers no flash access (MFPA status " +
                                                   hex_string(mfpa.status) + ")");
  const std::uint32_t log2 = be::get32(mfpa.data.data(), 0x18) & 0x3ff;
  if (log2 >= 32) return make_error(ErrorCode::NotSupported, "MFPA reports a sector size of 2^" + std::to_string(log2));
  return 1u << log2;
}

}  // namespace

Result<std::unique_ptr<FirmwareFlashBus>> FirmwareFlashBus::open(RegisterPort& port) {
  OF_ASSIGN(FirmwareFlashReader reader, FirmwareFlashReader::open(port));
  OF_ASSIGN(const std::uint32_t sector, sector_size_reported(port));
  if (sector != reader.chip().min_erase_size())
    return make_error(ErrorCode::NotSupported, "the firmware erases " + hex_string(sector) + "-byte sectors, the " +
                                                   std::string(reader.chip().name) + " " +
                                                   hex_string(reader.chip().min_erase_size()) + "-byte ones");
  const std::size_t room = port.max_register_bytes() - flash_reg::kMfbaHeaderBytes;  // open() checked the room
  const std::size_t block = std::bit_floor(std::min(room, flash_reg::kMfbaMaxWrite));
  return std::unique_ptr<FirmwareFlashBus>(new FirmwareFlashBus(port, std::move(reader), block));
}

Result<void> FirmwareFlashBus::read(std::uint32_t address, std::span<std::uint8_t> out) {
  return reader_.read_into(address, out);
}

Result<void> FirmwareFlashBus::erase(std::uint32_t address) {
  std::vector<std::uint8_t> data(flash_reg::kMfbeBytes, 0);
  be::put32(data.data(), 0x08, address);
  OF_ASSIGN(const AccessRegisterTlv answer, port_->write(flash_reg::kMfbe, std::move(data)));
  if (answer.status != 0)
    return make_error(ErrorCode::Io, "the firmware did not erase the flash sector at " + hex_string(address) +
                                         " (MFBE status " + hex_string(answer.status) + ")");
  return {};
}

Result<void> FirmwareFlashBus::program(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const std::uint32_t at = address + static_cast<std::uint32_t>(done);
    const std::size_t n = std::min(bytes.size() - done, write_block_ - at % write_block_);
    std::vector<std::uint8_t> data(flash_reg::kMfbaHeaderBytes + (n + 3) / 4 * 4, 0);
    be::put32(data.data(), 0x04, static_cast<std::uint32_t>(n));
    be::put32(data.data(), 0x08, at);
    flash_reg::flash_bytes_to_wire(bytes.subspan(done, n), std::span(data).subspan(flash_reg::kMfbaHeaderBytes));
    OF_ASSIGN(const AccessRegisterTlv answer, port_->write(flash_reg::kMfba, std::move(data)));
    if (answer.status != 0)
      return make_error(ErrorCode::Io, "the firmware did not program the flash at " + hex_string(at) +
                                           " (MFBA status " + hex_string(answer.status) + ")");
    done += n;
  }
  return {};
}

}  // namespace openflint
