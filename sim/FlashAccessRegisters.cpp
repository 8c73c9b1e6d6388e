// FlashAccessRegisters: MFPA/MFBA/MFBE/MFMC layouts (mft-internals §4.2) over the simulated firmware's flash port.
#include "sim/FlashAccessRegisters.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "core/BigEndianFields.h"
#include "mtcr/registers/FirmwareFlashRegisters.h"
#include "sim/SimDevice.h"

namespace openflint::sim {
namespace {

using be::get32;
using be::put32;

constexpr std::size_t kMfbaHeader = flash_reg::kMfbaHeaderBytes;
constexpr std::uint32_t kMfbaMaxData = flash_reg::kMfbaMaxData;
constexpr std::uint32_t kBlock64k = 64 * 1024;

std::uint32_t bank_of(const AccessRegisterTlv& r) { return get32(r.data.data(), 0x00) >> 4 & 0x3; }

bool chip_has_64k_blocks(const FlashChip& chip) { return chip.block_size == kBlock64k; }

// What an erase or program the firmware attempted leaves as the answer: the device lost power
// under it (Io: nobody answers), or the chip refused it (internal error), or done.
Result<void> finish_flash_work(SimDevice& device, AccessRegisterTlv& request, const Result<void>& done) {
  if (!device.powered()) return make_error(ErrorCode::Io, "device is powered off");
  request.status = done ? 0 : AccessRegisterTlv::kStatusInternalError;
  return {};
}

Result<void> write_mfba(SimDevice& device, AccessRegisterTlv& request, std::uint32_t address, std::uint32_t size) {
  std::vector<std::uint8_t> bytes(size);
  flash_reg::wire_to_flash_bytes(std::span(request.data).subspan(kMfbaHeader), bytes);
  return finish_flash_work(device, request, device.firmware_program(address, bytes));
}

}  // namespace

void fill_answer(AccessRegisterTlv& request, const std::vector<std::uint8_t>& full) {
  std::copy_n(full.begin(), std::min(full.size(), request.data.size()), request.data.begin());
  request.status = 0;
}

void answer_mfpa(SimDevice& device, AccessRegisterTlv& request) {
  if (request.method != AccessRegisterTlv::kMethodQuery) {
    request.status = AccessRegisterTlv::kStatusMethodNotSupported;
    return;
  }
  if (request.data.size() < 0x1c || bank_of(request) != 0) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  const FlashChip& chip = device.flash().chip();
  std::vector<std::uint8_t> m(flash_reg::kMfpaBytes, 0);
  put32(m.data(), 0x04, static_cast<std::uint32_t>(device.boot_state().booted_address));
  put32(m.data(), 0x10, 1u | (chip_has_64k_blocks(chip) ? flash_reg::kBulk64kErase : 0u));  // flash_num 1
  const std::uint32_t j = chip.jedec_id;
  put32(m.data(), 0x14, (j & 0xff) << 16 | (j >> 8 & 0xff) << 8 | (j >> 16 & 0xff));
  put32(m.data(), 0x18, static_cast<std::uint32_t>(std::countr_zero(chip.min_erase_size())));
  fill_answer(request, m);
}

Result<void> answer_mfba(SimDevice& device, AccessRegisterTlv& request) {
  if (request.data.size() < kMfbaHeader || bank_of(request) != 0) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return {};
  }
  const std::uint32_t size = get32(request.data.data(), 0x04) & 0x1ff;
  const std::uint32_t address = get32(request.data.data(), 0x08);
  const std::uint64_t flash_size = device.flash().chip().size;
  if (size == 0 || size > kMfbaMaxData || std::uint64_t{address} + size > flash_size ||
      request.data.size() < kMfbaHeader + (size + 3) / 4 * 4) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return {};
  }
  if (request.method == AccessRegisterTlv::kMethodWrite) return write_mfba(device, request, address, size);
  std::vector<std::uint8_t> bytes(size);
  if (!device.firmware_read(address, bytes)) return make_error(ErrorCode::Io, "device is powered off");
  std::fill(request.data.begin() + kMfbaHeader, request.data.end(), 0);
  flash_reg::flash_bytes_to_wire(bytes, std::span(request.data).subspan(kMfbaHeader));
  request.status = 0;
  return {};
}

Result<void> answer_mfbe(SimDevice& device, AccessRegisterTlv& request) {
  if (request.method != AccessRegisterTlv::kMethodWrite) {
    request.status = AccessRegisterTlv::kStatusMethodNotSupported;
    return {};
  }
  if (request.data.size() < flash_reg::kMfbeBytes || bank_of(request) != 0) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return {};
  }
  const std::uint32_t flags = get32(request.data.data(), 0x00);
  const std::uint32_t address = get32(request.data.data(), 0x08);
  const FlashChip& chip = device.flash().chip();
  const bool bulk64 = (flags & flash_reg::kBulk64kErase) != 0;
  const std::uint32_t unit = bulk64 ? kBlock64k : chip.min_erase_size();
  if ((flags & flash_reg::kBulk32kErase) != 0 || (bulk64 && !chip_has_64k_blocks(chip)) || address % unit != 0 ||
      std::uint64_t{address} + unit > chip.size) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return {};
  }
  return finish_flash_work(device, request, device.firmware_erase(address, unit));
}

void answer_mfmc(SimDevice& /*device*/, AccessRegisterTlv& request) {
  if (request.method != AccessRegisterTlv::kMethodQuery) {
    request.status = AccessRegisterTlv::kStatusMethodNotSupported;
    return;
  }
  if (request.data.size() < 4 || bank_of(request) != 0) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  fill_answer(request, std::vector<std::uint8_t>(flash_reg::kMfmcBytes, 0));  // wrp_en 0, quad_en 0, dummy cycles 0
}

}  // namespace openflint::sim
