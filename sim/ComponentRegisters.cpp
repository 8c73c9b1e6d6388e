// ComponentRegisters: field layouts of the component-update registers, mapped onto ComponentUpdate.
#include "sim/ComponentRegisters.h"

#include <algorithm>
#include <vector>

#include "core/BigEndianFields.h"
#include "mtcr/registers/FirmwareFlashRegisters.h"
#include "sim/SimDevice.h"

namespace openflint::sim {
namespace {

using be::get32;
using be::put32;

constexpr std::uint16_t kBootImageIdentifier = 1;  // MCQS identifier: BOOT_IMG
constexpr std::uint32_t kMcdaMaxWrite = 128;       // MCDA data bytes per access (32 dwords)

bool fits(const AccessRegisterTlv& r, std::size_t bytes) { return r.data.size() >= bytes; }

void set_status(AccessRegisterTlv& r, UpdateAnswer a) {
  r.status = a == UpdateAnswer::Accepted       ? 0
             : a == UpdateAnswer::ResourceBusy ? AccessRegisterTlv::kStatusResourceNotAvailable
                                               : AccessRegisterTlv::kStatusBadParameter;
}

// Version word of MCQI versions: major [31:24], minor [23:16], subminor [15:0].
std::uint32_t version_word(const ImageQuery& q) {
  if (!q.fw_version) return 0;
  return (q.fw_version->major & 0xffu) << 24 | (q.fw_version->minor & 0xffu) << 16 | (q.fw_version->subminor & 0xffffu);
}

std::vector<std::uint8_t> versions_blob(const ImageQuery& q) {
  std::vector<std::uint8_t> v(0x7c, 0);  // mcqi_version: 0x20 header + 92-byte version string
  const std::string text = q.fw_version ? std::to_string(q.fw_version->major) + "." + std::to_string(q.fw_version->minor) +
                                              "." + std::to_string(q.fw_version->subminor)
                                        : std::string();
  put32(v.data(), 0x00, static_cast<std::uint32_t>(text.size()) | (q.release_date ? 1u << 29 : 0u));
  put32(v.data(), 0x04, version_word(q));
  if (q.release_date)  // build_time: day [7:0], month [15:8], year [31:16] of its low dword
    put32(v.data(), 0x0c, static_cast<std::uint32_t>(q.release_date->year) << 16 |
                              static_cast<std::uint32_t>(q.release_date->month) << 8 | q.release_date->day);
  std::copy(text.begin(), text.end(), v.begin() + 0x20);
  return v;
}

std::vector<std::uint8_t> capabilities_blob(const SimDevice& device) {
  std::vector<std::uint8_t> c(0x14, 0);
  const BootState& boot = device.boot_state();
  put32(c.data(), 0x00, 0x3);  // supported_info_bitmask: capabilities, versions
  put32(c.data(), 0x04, boot.running ? static_cast<std::uint32_t>(boot.running->image_size) : 0);
  put32(c.data(), 0x08, static_cast<std::uint32_t>(ComponentUpdate::max_component_size(device)));
  put32(c.data(), 0x0c, 2u << 28 | kMcdaMaxWrite);  // log_mcda_word_size 2 (dwords), mcda_max_write_size
  put32(c.data(), 0x10, 1u << 29 | 1u << 28);        // match_chip_id, match_psid
  return c;
}

// The firmware traces what an instruction or a download did to its state machine: the state
// as the instruction's outcome shows it (LOCKED -> DOWNLOAD for UPDATE_COMPONENT, whose
// INITIALIZE ends within it), and a new error code.
void trace_update(SimDevice& device, const UpdateStatus& before) {
  FirmwareTracer* tracer = device.tracer();
  if (tracer == nullptr) return;
  const UpdateStatus after = device.component_update().status();
  const auto from = static_cast<std::uint32_t>(before.state);
  const auto to = static_cast<std::uint32_t>(after.state);
  if (from != to) tracer->trace(FirmwareTraceMessage::UpdateState, {from, to, ComponentUpdate::kBootImageIndex});
  if (after.error_code != 0 && (after.error_code != before.error_code || from != to))
    tracer->trace(FirmwareTraceMessage::UpdateError, {ComponentUpdate::kBootImageIndex, after.error_code, to});
}

}  // namespace

void answer_mcqs(SimDevice& device, AccessRegisterTlv& request) {
  if (!fits(request, 0x10) || request.method != AccessRegisterTlv::kMethodQuery) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  const std::uint16_t index = static_cast<std::uint16_t>(get32(request.data.data(), 0x00));
  if (index != ComponentUpdate::kBootImageIndex) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  std::fill(request.data.begin(), request.data.end(), 0);
  put32(request.data.data(), 0x00, 1u << 31 | index);  // last_index_flag
  put32(request.data.data(), 0x04, kBootImageIdentifier);
  const bool pending = device.component_update().pending().has_value();
  const std::uint32_t update_state = pending ? 4 : 3;  // active pending reset / active
  put32(request.data.data(), 0x08, 2u << 4 | update_state);  // component_status 2: in use
  request.status = 0;
}

void answer_mcqi(SimDevice& device, AccessRegisterTlv& request) {
  if (!fits(request, 0x18) || request.method != AccessRegisterTlv::kMethodQuery) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  const std::uint32_t d0 = get32(request.data.data(), 0x00);
  const bool read_pending = (d0 >> 31) != 0;
  const std::uint8_t info_type = get32(request.data.data(), 0x08) & 0x1f;
  const std::uint32_t offset = get32(request.data.data(), 0x10);
  const std::uint16_t asked = static_cast<std::uint16_t>(get32(request.data.data(), 0x14));
  std::vector<std::uint8_t> blob;
  const BootState& boot = device.boot_state();
  const auto& pending = device.component_update().pending();
  if ((d0 & 0xffff) != ComponentUpdate::kBootImageIndex || (read_pending && !pending) || !boot.running) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  if (info_type == 0) {
    blob = capabilities_blob(device);
  } else if (info_type == 1) {
    blob = versions_blob(read_pending ? *pending : *boot.running);
  } else {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  const std::size_t room = request.data.size() - 0x18;
  const std::size_t from = std::min<std::size_t>(offset, blob.size());
  const std::size_t n = std::min({std::size_t{asked}, room, blob.size() - from});
  std::fill(request.data.begin() + 0x18, request.data.end(), 0);
  std::copy_n(blob.begin() + static_cast<std::ptrdiff_t>(from), n, request.data.begin() + 0x18);
  put32(request.data.data(), 0x0c, static_cast<std::uint32_t>(blob.size()));  // info_size
  put32(request.data.data(), 0x14, static_cast<std::uint32_t>(n));            // data_size
  request.status = 0;
}

void answer_mcc(SimDevice& device, AccessRegisterTlv& request) {
  if (!fits(request, 0x14)) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  ComponentUpdate& update = device.component_update();
  if (request.method != AccessRegisterTlv::kMethodQuery) {
    const std::uint32_t d0 = get32(request.data.data(), 0x00);
    const auto instruction = static_cast<UpdateInstruction>(d0 & 0xff);
    const std::uint16_t index = static_cast<std::uint16_t>(get32(request.data.data(), 0x04));
    const std::uint32_t handle = get32(request.data.data(), 0x08) & 0xffffff;
    const std::uint32_t size = get32(request.data.data(), 0x10);
    const UpdateStatus before = update.status();
    set_status(request, update.control(device, instruction, handle, index, size));
    trace_update(device, before);
    if (request.status != 0) return;
  }
  const UpdateStatus s = update.status();
  // time_elapsed_since_last_cmd [27:16]; the instruction [7:0] and activation delay stay as sent.
  put32(request.data.data(), 0x00, (get32(request.data.data(), 0x00) & 0xf000ffffu) | s.idle_seconds << 16);
  put32(request.data.data(), 0x08, s.handle);
  put32(request.data.data(), 0x0c, static_cast<std::uint32_t>(s.progress & 0x7f) << 16 |
                                       static_cast<std::uint32_t>(s.error_code) << 8 |
                                       static_cast<std::uint32_t>(s.state));
  put32(request.data.data(), 0x10, s.component_size);
  request.status = 0;
}

void answer_mcda(SimDevice& device, AccessRegisterTlv& request) {
  if (!fits(request, 0x10) || request.method == AccessRegisterTlv::kMethodQuery) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  const std::uint32_t handle = get32(request.data.data(), 0x00) & 0xffffff;
  const std::uint32_t offset = get32(request.data.data(), 0x04);
  const std::uint32_t size = get32(request.data.data(), 0x08) & 0xffff;
  if (size > kMcdaMaxWrite || request.data.size() < 0x10 + std::size_t{(size + 3) / 4 * 4}) {
    request.status = AccessRegisterTlv::kStatusBadParameter;
    return;
  }
  // mstflint loads the component into host dwords (little-endian) and the register packs each
  // dword big-endian: component byte 4i+j travels as byte 3-j of data dword i.
  std::vector<std::uint8_t> bytes(size);
  flash_reg::wire_to_flash_bytes(std::span(request.data).subspan(flash_reg::kMcdaHeaderBytes), bytes);
  const std::span<const std::uint8_t> data(bytes);
  const UpdateStatus before = device.component_update().status();
  set_status(request, device.component_update().download(device, handle, offset, data));
  trace_update(device, before);
}

}  // namespace openflint::sim
