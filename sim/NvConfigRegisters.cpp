// NvConfigRegisters: MNVDA/MNVDI/MNVQC/MNVIA/MNVGC over a SimDevice's NvConfigStore (docs/nvconfig.md §2).
#include "sim/NvConfigRegisters.h"

#include <algorithm>

#include "mtcr/registers/NvConfigRegisters.h"
#include "sim/FirmwareRegisters.h"
#include "sim/SimDevice.h"

namespace openflint::sim {

const NvItem* find_nv_item(const NvConfigTable& table, std::uint32_t type, unsigned ports) {
  for (const NvItem& item : table.items) {
    if (item.item_class != NvItemClass::PhysicalPort) {
      if (type == nv_reg::item_type(item.item_class, item.index)) return &item;
      continue;
    }
    for (unsigned port = 1; port <= ports; ++port)
      if (type == nv_reg::item_type(item.item_class, item.index, static_cast<std::uint8_t>(port))) return &item;
  }
  return nullptr;
}


namespace {

using Tlv = AccessRegisterTlv;

std::vector<std::uint8_t> item_data(const NvConfigStore::Items& items, std::uint32_t type, const NvItem& item) {
  const auto it = items.find(type);
  return it != items.end() ? it->second : nv_reg::factory_item_data(item);
}

void answer_mnvda(SimDevice& device, const NvConfigTable& table, Tlv& request) {
  if (request.data.size() < nv_reg::kHeaderBytes) {
    request.status = Tlv::kStatusBadParameter;
    return;
  }
  const nv_reg::NvItemHeader header = nv_reg::get_header(request.data);
  const NvItem* item = find_nv_item(table, header.type, device.info().port_count);
  if (item == nullptr) {
    request.status = Tlv::kStatusBadParameter;
    return;
  }
  auto room = std::span(request.data).subspan(nv_reg::kHeaderBytes);
  NvConfigStore& store = device.nv_config();
  if (request.method == Tlv::kMethodWrite) {
    if (item->capability || header.length > nv_reg::kMaxItemBytes || header.length > room.size()) {
      request.status = Tlv::kStatusBadParameter;
      return;
    }
    std::vector<std::uint8_t> data(item->size, 0);
    std::copy_n(room.begin(), std::min<std::size_t>(header.length, item->size), data.begin());
    store.store(header.type, std::move(data));
    request.status = 0;
    return;
  }
  std::vector<std::uint8_t> data;
  switch (header.mode) {
    case nv_reg::NvReadMode::Default: data = nv_reg::factory_item_data(*item); break;
    case nv_reg::NvReadMode::Current: data = item_data(store.current(), header.type, *item); break;
    case nv_reg::NvReadMode::Next: data = item_data(store.stored(), header.type, *item); break;
  }
  nv_reg::NvItemHeader answer = header;
  answer.length = item->size;
  nv_reg::put_header(request.data, answer);
  std::fill(room.begin(), room.end(), 0);
  std::copy_n(data.begin(), std::min(data.size(), room.size()), room.begin());
  request.status = 0;
}

void answer_mnvqc(SimDevice& device, const NvConfigTable& table, Tlv& request) {
  if (request.data.size() < nv_reg::kMnvqcBytes) {
    request.status = Tlv::kStatusBadParameter;
    return;
  }
  const std::uint32_t type = nv_reg::get_be32(request.data, 0);
  const NvItem* item = find_nv_item(table, type, device.info().port_count);
  std::uint32_t caps = 0;
  if (item != nullptr) caps = 1u | (item->capability ? 0u : 2u) | std::uint32_t{item->version & 0xfu} << 4;
  nv_reg::put_be32(request.data, 4, caps);
  request.status = 0;
}

}  // namespace

bool answer_nv_config(SimDevice& device, AccessRegisterTlv& request) {
  const std::uint16_t id = request.register_id;
  const NvConfigTable* table = device.info().nv_config;
  if (table != nullptr && table->access == NvConfigAccess::Gen4Registers && running_mgir(device).has_firmware())
    return answer_gen4_nv_config(device, *table, request);
  if (id != nv_reg::kMnvda && id != nv_reg::kMnvdi && id != nv_reg::kMnvqc && id != nv_reg::kMnvia &&
      id != nv_reg::kMnvgc)
    return false;
  if (table == nullptr || table->access != NvConfigAccess::AccessRegisters || !running_mgir(device).has_firmware()) {
    request.status = Tlv::kStatusRegisterNotSupported;
    return true;
  }
  const bool get_only = id == nv_reg::kMnvqc || id == nv_reg::kMnvgc;
  const bool set_only = id == nv_reg::kMnvdi || id == nv_reg::kMnvia;
  if ((get_only && request.method != Tlv::kMethodQuery) || (set_only && request.method != Tlv::kMethodWrite)) {
    request.status = Tlv::kStatusMethodNotSupported;
    return true;
  }
  switch (id) {
    case nv_reg::kMnvda: answer_mnvda(device, *table, request); break;
    case nv_reg::kMnvqc: answer_mnvqc(device, *table, request); break;
    case nv_reg::kMnvdi:
      if (request.data.size() < nv_reg::kHeaderBytes) {
        request.status = Tlv::kStatusBadParameter;
        break;
      }
      device.nv_config().invalidate(nv_reg::get_header(request.data).type);
      request.status = 0;
      break;
    case nv_reg::kMnvia:
      device.nv_config().invalidate_all();
      request.status = 0;
      break;
    default:  // MNVGC: factory defaults and current values can both be read
      std::fill(request.data.begin(), request.data.end(), 0);
      if (request.data.size() >= 4) nv_reg::put_be32(request.data, 0, 0x3);
      request.status = 0;
      break;
  }
  return true;
}

}  // namespace openflint::sim
