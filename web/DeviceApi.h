// DeviceApi: the documents behind the web console's pages — each the one a CLI prints with --json,
// built by the same library calls (reports/): the device list (`flint -d DEV q --json` per
// device), a device's registers (`mst dump -v --json`) and its dump text (mstregdump's lines). It
// opens each device per request and lets it go, so other tools (and `mst mwrite`) work beside it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Result.h"
#include "fwops/Device.h"
#include "remote/BusSession.h"

namespace openflint {

class DeviceApi {
 public:
  DeviceApi(std::vector<std::string> devices, DeviceOpenOptions open_options, bool read_only, AuditLog audit);

  // {"ok", "read_only", "devices": [{"index", "name", "query": the flint q --json document, or
  // its error document}]}: one device's failure is its entry's, not the list's.
  [[nodiscard]] nlohmann::json devices_document() const;
  // The `mst dump -v --json` document of device `index`. NotFound for an index not served.
  [[nodiscard]] Result<nlohmann::json> registers_document(std::size_t index) const;
  // `mst dump`'s text (diffable with mstregdump's output).
  [[nodiscard]] Result<std::string> dump_text(std::size_t index) const;
  // {"address", "field", "value"} (numbers as "0x.." text or JSON numbers) set through
  // fwops write_cr_field; {"ok", "address", "register", "before", "after"}. PermissionDenied in
  // read-only mode. Audited (done or refused) with `peer`.
  [[nodiscard]] Result<nlohmann::json> write_field(std::size_t index, const nlohmann::json& request,
                                                   const std::string& peer) const;

  [[nodiscard]] const std::vector<std::string>& devices() const { return devices_; }

 private:
  [[nodiscard]] Result<Device> open(std::size_t index) const;
  void audit(const std::string& line) const;

  std::vector<std::string> devices_;
  DeviceOpenOptions open_options_;
  bool read_only_ = false;
  AuditLog audit_;
};

}  // namespace openflint
