// CapabilityRegister: the MCAM group-0 mask built from the catalog's firmware flash access.
#include "sim/CapabilityRegister.h"

#include <algorithm>
#include <array>

#include "sim/SimDevice.h"

namespace openflint::sim {
namespace {

constexpr std::size_t kMaskAt = 0x08;

void set_bit(AccessRegisterTlv& r, unsigned n) {
  const std::size_t byte = kMaskAt + 15 - n / 8;
  if (byte < r.data.size()) r.data[byte] |= static_cast<std::uint8_t>(1u << (n % 8));
}

}  // namespace

void answer_mcam(const SimDevice& device, AccessRegisterTlv& request) {
  if (request.method != AccessRegisterTlv::kMethodQuery) {
    request.status = AccessRegisterTlv::kStatusMethodNotSupported;
    return;
  }
  const std::uint8_t group = request.data.size() > 3 ? request.data[3] : 0;
  std::fill(request.data.begin(), request.data.end(), 0);
  if (request.data.size() > 3) request.data[3] = group;
  request.status = 0;
  if (group != 0) return;
  set_bit(request, 0x20);                                             // MGIR
  if (device.reset_register().levels != 0) set_bit(request, 0x28);    // MFRL
  if (device.component_update_offered())
    for (unsigned n = 0x60; n <= 0x64; ++n) set_bit(request, n);     // MCQS .. MQIS
  set_bit(request, 0x7f);                                             // MCAM itself
}

}  // namespace openflint::sim
