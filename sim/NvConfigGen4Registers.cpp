// NvConfigGen4Registers: MNVA/MNVI/MNVIA of a simulated ConnectX-3 firmware over its NvConfigStore (docs/nvconfig.md §4).
#include <algorithm>

#include "mtcr/registers/NvConfigRegisters.h"
#include "sim/NvConfigRegisters.h"
#include "sim/SimDevice.h"

namespace openflint::sim {
namespace {

using Tlv = AccessRegisterTlv;

// The catalog item a 4th-generation header names, and its store key (the 5th-generation type
// dword, so one store and one state.json format serve both generations).
struct Gen4Item {
  const NvItem* item = nullptr;
  std::uint32_t key = 0;
};

Gen4Item find_gen4_item(const NvConfigTable& table, const nv_reg::Gen4ItemHeader& header, unsigned ports) {
  for (const NvItem& item : table.items) {
    if (item.index != header.type) continue;
    const bool per_port = item.item_class == NvItemClass::PhysicalPort;
    if (per_port ? header.type_mod < 1 || header.type_mod > ports : header.type_mod != 0) return {};
    return {&item, nv_reg::item_type(item.item_class, item.index, header.type_mod)};
  }
  return {};
}

void answer_mnva(SimDevice& device, const NvConfigTable& table, Tlv& request) {
  if (request.data.size() < nv_reg::kGen4HeaderBytes) {
    request.status = Tlv::kStatusBadParameter;
    return;
  }
  const nv_reg::Gen4ItemHeader header = nv_reg::get_gen4_header(request.data);
  const Gen4Item found = find_gen4_item(table, header, device.info().port_count);
  if (found.item == nullptr) {
    request.status = Tlv::kStatusBadParameter;
    return;
  }
  auto room = std::span(request.data).subspan(nv_reg::kGen4HeaderBytes);
  const std::size_t length = std::size_t{header.length_dwords} * 4;
  NvConfigStore& store = device.nv_config();
  if (request.method == Tlv::kMethodWrite) {
    if (length > nv_reg::kGen4MaxItemBytes || length > room.size()) {
      request.status = Tlv::kStatusBadParameter;
      return;
    }
    std::vector<std::uint8_t> data(found.item->size, 0);
    std::copy_n(room.begin(), std::min<std::size_t>(length, data.size()), data.begin());
    store.store(found.key, std::move(data));
    request.status = 0;
    return;
  }
  const auto it = store.stored().find(found.key);
  if (it == store.stored().end()) {  // never stored: the firmware runs on its defaults
    request.status = Tlv::kStatusResourceNotAvailable;
    return;
  }
  nv_reg::Gen4ItemHeader answer = header;
  answer.length_dwords = static_cast<std::uint16_t>((found.item->size + 3u) / 4);
  nv_reg::put_gen4_header(request.data, answer);
  std::fill(room.begin(), room.end(), 0);
  std::copy_n(it->second.begin(), std::min(it->second.size(), room.size()), room.begin());
  request.status = 0;
}

}  // namespace

bool answer_gen4_nv_config(SimDevice& device, const NvConfigTable& table, AccessRegisterTlv& request) {
  const std::uint16_t id = request.register_id;
  if (id == nv_reg::kMnva) {
    answer_mnva(device, table, request);
    return true;
  }
  if (id != nv_reg::kMnvi && id != nv_reg::kGen4Mnvia) {
    const bool other_nv = id == nv_reg::kMnvqc || id == nv_reg::kMnvia || id == nv_reg::kMnvgc;
    if (other_nv) request.status = Tlv::kStatusRegisterNotSupported;
    return other_nv;
  }
  if (request.method != Tlv::kMethodWrite) {
    request.status = Tlv::kStatusMethodNotSupported;
    return true;
  }
  if (id == nv_reg::kGen4Mnvia) {
    device.nv_config().invalidate_all();
    request.status = 0;
    return true;
  }
  if (request.data.size() < nv_reg::kGen4HeaderBytes) {
    request.status = Tlv::kStatusBadParameter;
    return true;
  }
  const Gen4Item found = find_gen4_item(table, nv_reg::get_gen4_header(request.data), device.info().port_count);
  if (found.item == nullptr) {
    request.status = Tlv::kStatusBadParameter;
    return true;
  }
  device.nv_config().invalidate(found.key);
  request.status = 0;
  return true;
}

}  // namespace openflint::sim
