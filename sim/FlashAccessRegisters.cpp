// FlashAccessRegisters: MFPA/MFBA layouts (mft-internals §4.2) over the simulated firmware's flash port.
#include "sim/FlashAccessRegisters.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "mtcr/FirmwareFlashRegisters.h"
#include "mtcr/MadFormat.h"
#include "sim/SimDevice.h"

namespace openflint::sim {
namespace {

using mad::get32;
using mad::put32;

constexpr std::size_t kMfpaBytes = 0x20;
constexpr std::size_t kMfbaHeader = flash_reg::kMfbaHeaderBytes;
constexpr std::uint32_t kMfbaMaxData = flash_reg::kMfbaMaxData;

std::uint32_t bank_of(const AccessRegisterTlv& r) { return get32(r.data.data(), 0x00) >> 4 & 0x3; }

}  // namespace

void answer_mfpa(SimDevice& device, AccessRegisterTlv& request) {
  if (request.method != AccessRegisterTlv::kMethodQuery || request.data.size() < 0x1c || bank_of(request) != 0) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  const FlashChip& chip = device.flash().chip();
  std::vector<std::uint8_t> m(kMfpaBytes, 0);
  put32(m.data(), 0x04, static_cast<std::uint32_t>(device.boot_state().booted_address));
  put32(m.data(), 0x10, 1);  // flash_num
  const std::uint32_t j = chip.jedec_id;
  put32(m.data(), 0x14, (j & 0xff) << 16 | (j >> 8 & 0xff) << 8 | (j >> 16 & 0xff));
  put32(m.data(), 0x18, static_cast<std::uint32_t>(std::countr_zero(chip.min_erase_size())));
  std::copy_n(m.begin(), std::min(m.size(), request.data.size()), request.data.begin());
  request.status = 0;
}

void answer_mfba(SimDevice& device, AccessRegisterTlv& request) {
  if (request.method != AccessRegisterTlv::kMethodQuery) {
    request.status = AccessRegisterTlv::kStatusMethodNotSupported;
    return;
  }
  if (request.data.size() < kMfbaHeader || bank_of(request) != 0) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  const std::uint32_t size = get32(request.data.data(), 0x04) & 0x1ff;
  const std::uint32_t address = get32(request.data.data(), 0x08);
  const std::uint64_t flash_size = device.flash().chip().size;
  if (size == 0 || size > kMfbaMaxData || std::uint64_t{address} + size > flash_size ||
      request.data.size() < kMfbaHeader + (size + 3) / 4 * 4) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  std::vector<std::uint8_t> bytes(size);
  if (!device.firmware_read(address, bytes)) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  std::fill(request.data.begin() + kMfbaHeader, request.data.end(), 0);
  flash_reg::flash_bytes_to_wire(bytes, std::span(request.data).subspan(kMfbaHeader));
  request.status = 0;
}

}  // namespace openflint::sim
