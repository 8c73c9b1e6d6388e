// PortCounters: PerfMgt PortCounters GET through libibmad (pma_query_via), decoded by field.
#include "fabric/PortCounters.h"

#include <array>
#include <utility>

#include "core/StderrSilenced.h"
#include "fabric/IbDiagLibrary.h"

namespace openflint {
namespace {

constexpr unsigned kTimeoutMs = 1000;

struct CounterField {
  std::string_view name;
  MAD_FIELDS field;
};

// IBA 16.1.3.5 PortCounters: the error and recovery counters (the data counters are not health).
constexpr std::array<CounterField, 12> kCounters{{
    {"SymbolErrorCounter", IB_PC_ERR_SYM_F},
    {"LinkErrorRecoveryCounter", IB_PC_LINK_RECOVERS_F},
    {"LinkDownedCounter", IB_PC_LINK_DOWNED_F},
    {"PortRcvErrors", IB_PC_ERR_RCV_F},
    {"PortRcvRemotePhysicalErrors", IB_PC_ERR_PHYSRCV_F},
    {"PortRcvSwitchRelayErrors", IB_PC_ERR_SWITCH_REL_F},
    {"PortXmitDiscards", IB_PC_XMT_DISCARDS_F},
    {"PortXmitConstraintErrors", IB_PC_ERR_XMTCONSTR_F},
    {"PortRcvConstraintErrors", IB_PC_ERR_RCVCONSTR_F},
    {"LocalLinkIntegrityErrors", IB_PC_ERR_LOCALINTEG_F},
    {"ExcessiveBufferOverrunErrors", IB_PC_ERR_EXCESS_OVR_F},
    {"VL15Dropped", IB_PC_VL15_DROPPED_F},
}};

// PortCountersExtended: the 64-bit data and packet counters, by byte offset in the attribute.
struct TrafficField {
  std::string_view name;
  std::size_t offset;
};
constexpr std::array<TrafficField, 4> kTraffic{{
    {"PortXmitData", 8},
    {"PortRcvData", 16},
    {"PortXmitPkts", 24},
    {"PortRcvPkts", 32},
}};

}  // namespace

const std::vector<std::string_view>& port_traffic_counter_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (const auto& c : kTraffic) v.push_back(c.name);
    return v;
  }();
  return names;
}

Result<PortCounterValues> decode_port_traffic_counters(std::span<const std::uint8_t> data) {
  if (data.size() < 40)
    return make_error(ErrorCode::InvalidArgument,
                      "PortCountersExtended: " + std::to_string(data.size()) + " bytes, fewer than 40");
  PortCounterValues out;
  for (const auto& c : kTraffic) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < 8; ++i) v = (v << 8) | data[c.offset + i];
    out[std::string(c.name)] = v;
  }
  return out;
}

const std::vector<std::string_view>& port_error_counter_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (const auto& c : kCounters) v.push_back(c.name);
    return v;
  }();
  return names;
}

Result<PerfMgtPort> PerfMgtPort::open(const std::string& ca, int port) {
  OF_ASSIGN(const IbDiagFunctions* diag, IbDiagLibrary::functions());
  int classes[] = {IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS, IB_PERFORMANCE_CLASS};
  std::string name = ca;
  ibmad_port* p = nullptr;
  {
    const StderrSilenced quiet;  // libibmad prints "can't open UMAD port" itself; our error follows
    p = diag->rpc_open_port(name.empty() ? nullptr : name.data(), port, classes, 4);
  }
  if (p == nullptr)
    return make_error(ErrorCode::Io, "cannot open a PerfMgt port on " + (ca.empty() ? std::string("the first CA") : ca));
  return PerfMgtPort(diag, p);
}

PerfMgtPort& PerfMgtPort::operator=(PerfMgtPort&& other) noexcept {
  if (this != &other) {
    if (port_ != nullptr) diag_->rpc_close_port(port_);
    diag_ = other.diag_;
    port_ = std::exchange(other.port_, nullptr);
  }
  return *this;
}

PerfMgtPort::~PerfMgtPort() {
  if (port_ != nullptr) diag_->rpc_close_port(port_);
}

Result<PortCounterValues> PerfMgtPort::query(std::uint16_t lid, int port_number) {
  ib_portid_t dest{};
  ib_portid_set(&dest, lid, 0, 0);
  std::array<std::uint8_t, 1024> buf{};
  if (diag_->pma_query(buf.data(), &dest, port_number, kTimeoutMs, IB_GSI_PORT_COUNTERS, port_) == nullptr)
    return make_error(ErrorCode::Timeout, "PortCounters of lid " + std::to_string(lid) + " port " +
                                              std::to_string(port_number) + ": no answer");
  PortCounterValues out;
  for (const auto& c : kCounters) {
    std::uint32_t v = 0;
    diag_->decode_field(buf.data(), c.field, &v);
    out[std::string(c.name)] = v;
  }
  return out;
}

Result<PortCounterValues> PerfMgtPort::query_traffic(std::uint16_t lid, int port_number) {
  ib_portid_t dest{};
  ib_portid_set(&dest, lid, 0, 0);
  std::array<std::uint8_t, 1024> buf{};
  // pma_query_via leaves the attribute (the MAD's data from IB_PC_DATA_OFFS) at the buffer's start.
  if (diag_->pma_query(buf.data(), &dest, port_number, kTimeoutMs, IB_GSI_PORT_COUNTERS_EXT, port_) == nullptr)
    return make_error(ErrorCode::Timeout, "PortCountersExtended of lid " + std::to_string(lid) + " port " +
                                              std::to_string(port_number) + ": no answer");
  return decode_port_traffic_counters(std::span<const std::uint8_t>(buf.data(), IB_PC_DATA_SZ));
}

}  // namespace openflint
