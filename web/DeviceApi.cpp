// DeviceApi: opens the device for each request, builds the report, lets the device go.
#include "web/DeviceApi.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "cli/ErrorReport.h"
#include "core/HexString.h"
#include "fwops/DeviceFlash.h"
#include "fwops/DeviceQuery.h"
#include "fwops/DeviceVerify.h"
#include "fwops/registers/CrSpaceWords.h"
#include "fwops/registers/RegisterDump.h"
#include "fwops/registers/NvConfig.h"
#include "fwops/registers/NvConfigPlan.h"
#include "fwops/trace/DriverTraceReader.h"
#include "reports/ConfigDocument.h"
#include "reports/DeviceReport.h"
#include "reports/ImageReport.h"
#include "reports/RegisterDumpReport.h"
#include "reports/SafetyReport.h"
#include "web/JsonNumber.h"

namespace openflint {
DeviceApi::DeviceApi(std::vector<std::string> devices, DeviceOpenOptions open_options, bool read_only, AuditLog audit)
    : devices_(std::move(devices)), open_options_(std::move(open_options)), read_only_(read_only), audit_(std::move(audit)) {}

Result<Device> DeviceApi::open(std::size_t index) const {
  if (index >= devices_.size())
    return make_error(ErrorCode::NotFound, "no device " + std::to_string(index) + " is served");
  return open_device(devices_[index], open_options_);
}

void DeviceApi::forget(std::size_t index) const {
  const std::lock_guard lock(queries_mutex_);
  if (index < queries_.size()) queries_[index].entry = nullptr;
}

void DeviceApi::audit(const std::string& line) const {
  if (audit_) audit_(line);
}

nlohmann::json DeviceApi::query_entry(std::size_t index) const {
  nlohmann::json entry{{"index", index}, {"name", devices_[index]}};
  auto device = open(index);
  if (!device) {
    entry["query"] = cli::error_json(device.error());
  } else {
    auto query = query_device(*device);
    entry["query"] = query ? reports::device_query_with_safety_json(*device, *query) : cli::error_json(query.error());
  }
  entry["queried_at"] = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
  return entry;
}

nlohmann::json DeviceApi::devices_document(bool refresh) const {
  const auto now = std::chrono::steady_clock::now();
  std::vector<std::size_t> stale;
  {
    const std::lock_guard lock(queries_mutex_);
    queries_.resize(devices_.size());
    for (std::size_t i = 0; i < devices_.size(); ++i)
      if (refresh || queries_[i].entry.is_null() || now - queries_[i].at > kQueryTtl) stale.push_back(i);
  }
  // The stale ones in parallel: each opens its own device (a sim:PATH one loads its flash file).
  std::vector<nlohmann::json> fresh(stale.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t k = next++; k < stale.size(); k = next++) fresh[k] = query_entry(stale[k]);
  };
  std::vector<std::thread> threads;
  const std::size_t extra = std::min<std::size_t>(kQueryThreads, stale.size()) > 0
                                ? std::min<std::size_t>(kQueryThreads, stale.size()) - 1 : 0;
  for (std::size_t t = 0; t < extra; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  const std::lock_guard lock(queries_mutex_);
  for (std::size_t k = 0; k < stale.size(); ++k) {
    // A device another tool (or a burn from the console) holds is shown so, and asked again next time.
    const nlohmann::json& q = fresh[k]["query"];
    const bool busy = q.is_object() && q.contains("error") && q["error"].is_object() &&
                      q["error"].value("code", "") == std::string(to_string(ErrorCode::Busy));
    queries_[stale[k]] = {busy ? nlohmann::json(nullptr) : fresh[k], now};
  }
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t i = 0; i < queries_.size(); ++i) {
    const auto k = std::find(stale.begin(), stale.end(), i);
    list.push_back(queries_[i].entry.is_null() && k != stale.end() ? fresh[static_cast<std::size_t>(k - stale.begin())]
                                                                    : queries_[i].entry);
  }
  return {{"ok", true}, {"read_only", read_only_}, {"devices", std::move(list)}};
}

Result<nlohmann::json> DeviceApi::registers_document(std::size_t index) const {
  OF_ASSIGN(Device device, open(index));
  const auto start = std::chrono::steady_clock::now();
  OF_ASSIGN_CTX(const RegisterDump dump, dump_registers(device.access(), device.info(), RegisterDumpOptions{}),
                device.name());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return reports::dump_json(devices_[index], device.info(), dump, false, seconds);
}

Result<std::string> DeviceApi::dump_text(std::size_t index) const {
  OF_ASSIGN(Device device, open(index));
  OF_ASSIGN_CTX(const RegisterDump dump, dump_registers(device.access(), device.info(), RegisterDumpOptions{}),
                device.name());
  return reports::dump_text(dump, false);
}

Result<nlohmann::json> DeviceApi::verify_document(std::size_t index) const {
  OF_ASSIGN(Device device, open(index));
  OF_ASSIGN(const DeviceVerify verified, verify_device(device));
  return reports::verify_document(verified.report, verified.ok);
}

Result<nlohmann::json> DeviceApi::flash_document(std::size_t index, std::uint64_t offset, std::uint64_t length) const {
  if (length == 0 || length > kMaxFlashBytes)
    return make_error(ErrorCode::InvalidArgument, "length: 1.." + std::to_string(kMaxFlashBytes) + " bytes");
  OF_ASSIGN(Device device, open(index));
  OF_ASSIGN(auto flash, open_device_flash_reader(device));
  if (offset >= flash->size() || length > flash->size() - offset)
    return make_error(ErrorCode::InvalidArgument, "offset " + hex_string(offset) + " + " + std::to_string(length) +
                                                      " bytes is past the flash's end (" + hex_string(flash->size()) + ")");
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(length));
  OF_TRY_CTX(flash->read_into(offset, bytes), device.name() + ": reading flash at " + hex_string(offset));
  return nlohmann::json{{"ok", true},       {"device", devices_[index]}, {"flash_size", flash->size()},
                        {"offset", offset}, {"length", length},          {"hex", hex_digits(bytes)}};
}

Result<nlohmann::json> DeviceApi::write_field(std::size_t index, const nlohmann::json& request,
                                              const std::string& peer) const {
  const std::string who = "web " + peer + ": ";
  if (index >= devices_.size())
    return make_error(ErrorCode::NotFound, "no device " + std::to_string(index) + " is served");
  const std::string& name = devices_[index];
  if (read_only_) {
    audit(who + "refused write on " + name + ": read-only server");
    return make_error(ErrorCode::PermissionDenied, "this console is read-only (mst web --read-only)");
  }
  if (!request.is_object() || !request.contains("address") || !request.contains("value"))
    return make_error(ErrorCode::InvalidArgument, "a write needs \"address\" and \"value\" (and \"field\")");
  OF_ASSIGN(const std::uint64_t address, json_number(request["address"], "address"));
  OF_ASSIGN(const std::uint64_t value, json_number(request["value"], "value"));
  if (address > 0xffffffffu || value > 0xffffffffu)
    return make_error(ErrorCode::InvalidArgument, "address and value are 32-bit numbers");
  const std::string field = request.contains("field") && request["field"].is_string() ? request["field"].get<std::string>() : "";
  OF_ASSIGN(Device device, open(index));
  auto done = write_cr_field(device, static_cast<std::uint32_t>(address), field, static_cast<std::uint32_t>(value));
  if (!done) {
    audit(who + "refused write on " + name + " " + hex_dword(static_cast<std::uint32_t>(address)) + ": " +
          done.error().message());
    return make_error(std::move(done).error());
  }
  forget(index);
  audit(who + "wrote " + name + " " + hex_dword(done->address) + " (" + done->register_name +
        (field.empty() ? "" : "." + field) + ") " + hex_dword(done->before) + " -> " + hex_dword(done->after));
  return nlohmann::json{{"ok", true},
                        {"device", name},
                        {"address", hex_dword(done->address)},
                        {"register", done->register_name},
                        {"field", field},
                        {"before", hex_dword(done->before)},
                        {"after", hex_dword(done->after)}};
}

Result<nlohmann::json> DeviceApi::config_document(std::size_t index) const {
  OF_ASSIGN(Device device, open(index));
  OF_ASSIGN_CTX(NvConfig config, NvConfig::open(device), device.name());
  OF_ASSIGN_CTX(const std::vector<NvReading> rows, config.query(config.settings()), "querying " + device.name());
  return reports::config_query_json(devices_[index], std::string(device.info().name), config, rows);
}

Result<nlohmann::json> DeviceApi::trace_document(std::size_t index, std::uint64_t after) const {
  if (index >= devices_.size())
    return make_error(ErrorCode::NotFound, "no device " + std::to_string(index) + " is served");
  nlohmann::json doc{{"ok", true}, {"device", devices_[index]}, {"records", nlohmann::json::array()}, {"last", after}};
  std::optional<DriverTraceSource> source;
  {
    const std::lock_guard lock(traces_mutex_);
    if (const auto it = trace_sources_.find(index); it != trace_sources_.end()) source = it->second;
  }
  if (!source) {
    // A device a burn holds: say so soon, ask again later. Long enough for the console's own
    // query of the device (the first device list, prefetched at start, reads its safety
    // registers too: over 200 ms under ASan in CI).
    DeviceOpenOptions quick = open_options_;
    quick.lock_timeout = std::min(quick.lock_timeout, std::chrono::milliseconds(2000));
    OF_ASSIGN(Device device, open_device(devices_[index], quick));
    auto found = locate_driver_trace(device);
    if (!found) {
      doc["available"] = false;
      doc["reason"] = found.error().message();
      return doc;
    }
    source = *found;
    const std::lock_guard lock(traces_mutex_);
    trace_sources_[index] = *found;
  }
  DriverTraceReader reader(source->trace_file, source->dbdf);
  auto records = reader.read_new();
  if (!records) {
    const std::lock_guard lock(traces_mutex_);
    trace_sources_.erase(index);  // looked up again next time
    return make_error(records.error().with_context(devices_[index]));
  }
  std::size_t first = 0;
  while (first < records->size() && (*records)[first].timestamp <= after) ++first;
  if (records->size() - first > kMaxTraceRecords) first = records->size() - kMaxTraceRecords;
  for (std::size_t i = first; i < records->size(); ++i) {
    const TraceRecord& r = (*records)[i];
    doc["records"].push_back({{"timestamp", r.timestamp}, {"lost", r.lost}, {"event_id", r.event_id}, {"message", r.message}});
    doc["last"] = r.timestamp;
  }
  doc["available"] = true;
  return doc;
}

Result<nlohmann::json> DeviceApi::set_config(std::size_t index, const nlohmann::json& request, const std::string& peer) const {
  const std::string who = "web " + peer + ": ";
  if (index >= devices_.size())
    return make_error(ErrorCode::NotFound, "no device " + std::to_string(index) + " is served");
  const std::string& name = devices_[index];
  if (read_only_) {
    audit(who + "refused configuration of " + name + ": read-only server");
    return make_error(ErrorCode::PermissionDenied, "this console is read-only (mst web --read-only)");
  }
  if (!request.is_object() || !request.contains("set") || !request["set"].is_array() || request["set"].empty())
    return make_error(ErrorCode::InvalidArgument, "a configuration change needs \"set\": [\"NAME=VALUE\", ...]");
  std::vector<std::string> assignments;
  for (const auto& item : request["set"]) {
    if (!item.is_string()) return make_error(ErrorCode::InvalidArgument, "\"set\" holds \"NAME=VALUE\" strings");
    assignments.push_back(item.get<std::string>());
  }
  OF_ASSIGN(Device device, open(index));
  OF_ASSIGN_CTX(NvConfig config, NvConfig::open(device), name);
  auto plan = plan_nv_set(config, assignments);
  if (!plan) {
    audit(who + "refused configuration of " + name + ": " + plan.error().message());
    return make_error(plan.error().with_context(name));
  }
  const nlohmann::json changed = reports::config_changes_json(*plan);
  const std::vector<NvAssignment> changes = nv_changes(*plan);
  if (changes.empty()) return nlohmann::json{{"ok", true}, {"device", name}, {"changed", changed}};
  OF_TRY_CTX(config.set(changes), name);
  OF_TRY(device.commit());
  std::string list;
  for (const auto& c : changed) list += " " + c["name"].get<std::string>() + "=" + c["new"]["text"].get<std::string>();
  audit(who + "configured " + name + ":" + list + " (next boot)");
  return nlohmann::json{{"ok", true}, {"device", name}, {"changed", changed}, {"takes_effect", "next reset"}};
}

}  // namespace openflint
