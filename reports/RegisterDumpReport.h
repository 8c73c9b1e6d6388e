// RegisterDumpReport: how `mst dump` prints a register dump — mstregdump's "0xADDR 0xVALUE" lines
// (with -v the catalog's register names and fields as comments) and the --json document. The web
// console serves the same text and document.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "devices/DeviceInfo.h"
#include "fwops/registers/RegisterDump.h"

namespace openflint::reports {

// One line per dword; `verbose` adds " # name field=0x.. ..." to named registers and a "# ... not
// read: REASON" line per register left unread.
[[nodiscard]] std::string dump_text(const RegisterDump& dump, bool verbose);

// The `mst dump --json` document (`device` as the user named it).
[[nodiscard]] nlohmann::json dump_json(const std::string& device, const DeviceInfo& info, const RegisterDump& dump,
                                       bool full, double seconds);

}  // namespace openflint::reports
