// DeviceApi: the documents behind the web console's pages — each the one a CLI prints with --json,
// built by the same library calls (reports/): the device list (`flint -d DEV q --json` per
// device), a device's registers (`mst dump -v --json`) and its dump text (mstregdump's lines). It
// opens each device per request and lets it go, so other tools (and `mst mwrite`) work beside it.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Result.h"
#include "fwops/Device.h"
#include "fwops/trace/DriverTraceSource.h"
#include "remote/BusSession.h"

namespace openflint {

class DeviceApi {
 public:
  DeviceApi(std::vector<std::string> devices, DeviceOpenOptions open_options, bool read_only, AuditLog audit);

  // {"ok", "read_only", "devices": [{"index", "name", "query": the flint q --json document, or
  // its error document, "queried_at": seconds since the epoch}]}: one device's failure is its
  // entry's, not the list's. A query older than kQueryTtl, or every one with `refresh`, is asked
  // again, the devices in parallel (kQueryThreads); a write through the console forgets its
  // device's. The firmware facts change only with a burn or a reset, so the list answers from the
  // kept queries in milliseconds and says how old each is.
  [[nodiscard]] nlohmann::json devices_document(bool refresh = false) const;
  static constexpr std::chrono::seconds kQueryTtl{30};
  static constexpr unsigned kQueryThreads = 8;
  // The `mst dump -v --json` document of device `index`. NotFound for an index not served.
  [[nodiscard]] Result<nlohmann::json> registers_document(std::size_t index) const;
  // `mst dump`'s text (diffable with mstregdump's output).
  [[nodiscard]] Result<std::string> dump_text(std::size_t index) const;
  // The `flint -d NAME verify --json` document (the sections of the copy the boot ROM starts).
  [[nodiscard]] Result<nlohmann::json> verify_document(std::size_t index) const;
  // {"ok", "device", "flash_size", "offset", "length", "hex"}: `length` (1..4096) bytes of the
  // flash from `offset`, read as a query reads (through the firmware where it owns the flash),
  // as lowercase hex. InvalidArgument past the flash's end.
  [[nodiscard]] Result<nlohmann::json> flash_document(std::size_t index, std::uint64_t offset, std::uint64_t length) const;
  static constexpr std::uint64_t kMaxFlashBytes = 4096;

  // {"address", "field", "value"} (numbers as "0x.." text or JSON numbers) set through
  // fwops write_cr_field; {"ok", "address", "register", "before", "after"}. PermissionDenied in
  // read-only mode. Audited (done or refused) with `peer`.
  [[nodiscard]] Result<nlohmann::json> write_field(std::size_t index, const nlohmann::json& request,
                                                   const std::string& peer) const;

  // `mst config DEV query --json` (default, current and next boot of every parameter).
  [[nodiscard]] Result<nlohmann::json> config_document(std::size_t index) const;
  // The firmware's trace messages the driver printed for the device (fwops/trace: the lines of
  // the mlx5_fw event for its PCI address), those with a timestamp after `after`, the last
  // kMaxTraceRecords of them: {"ok", "device", "available", "reason" (when not available),
  // "records": [{"timestamp", "lost", "event_id", "message"}], "last" (the newest timestamp)}.
  static constexpr std::size_t kMaxTraceRecords = 500;
  [[nodiscard]] Result<nlohmann::json> trace_document(std::size_t index, std::uint64_t after) const;
  // {"set": ["NAME=VALUE", ...]} (mstconfig's names and values): `mst config DEV set -y --json`'s
  // document ({"ok", "device", "changed", "takes_effect"}); nothing written when every value is
  // already so. PermissionDenied in read-only mode. Audited.
  [[nodiscard]] Result<nlohmann::json> set_config(std::size_t index, const nlohmann::json& request,
                                                  const std::string& peer) const;

  [[nodiscard]] const std::vector<std::string>& devices() const { return devices_; }
  [[nodiscard]] bool read_only() const { return read_only_; }
  // Device `index` opened (NotFound for an index not served), as every request opens it.
  [[nodiscard]] Result<Device> open(std::size_t index) const;
  // Its kept query is asked again at the next list (after a burn, a reset, a write).
  void forget(std::size_t index) const;
  void audit(const std::string& line) const;

 private:

  [[nodiscard]] nlohmann::json query_entry(std::size_t index) const;

  std::vector<std::string> devices_;
  DeviceOpenOptions open_options_;
  struct KeptQuery {
    nlohmann::json entry;  // null: not asked yet, or forgotten
    std::chrono::steady_clock::time_point at;
  };
  mutable std::mutex queries_mutex_;
  mutable std::vector<KeptQuery> queries_;  // one per device
  // Where each device's trace is, once found (the device is not opened again for it while its
  // trace file reads): the live trace then never waits for a device a burn holds.
  mutable std::mutex traces_mutex_;
  mutable std::map<std::size_t, DriverTraceSource> trace_sources_;
  bool read_only_ = false;
  AuditLog audit_;
};

}  // namespace openflint
