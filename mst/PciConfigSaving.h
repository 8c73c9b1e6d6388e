// PciConfigSaving: saving the configuration space of several functions for `mst save` and
// `mst start` (which saves too, as the vendor's did): each function on its own, a failure recorded.
#pragma once

#include <filesystem>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "fwops/access/DeviceListing.h"
#include "fwops/access/PciConfigSaveLoad.h"

namespace openflint::mst {

struct SaveRun {
  std::filesystem::path dir;
  std::vector<PciConfigSaved> saved;
  std::vector<Error> failed;  // one per function that could not be saved
};

// The catalog functions of a listing (the ones mst status names; the others are never touched).
[[nodiscard]] std::vector<PciAddress> catalog_functions(const std::vector<PciDeviceStatus>& devices);

// save_pci_config for each address into `dir`, in order; the others still run after a failure.
[[nodiscard]] SaveRun save_functions(const std::filesystem::path& sysfs_root, const std::vector<PciAddress>& addresses,
                                     const std::filesystem::path& dir);

// {"dir": ..., "saved": [{"bdf", "file", "bytes", "vendor_id", "device_id"}], "failed": [{"code", "message"}]}
[[nodiscard]] nlohmann::json save_run_json(const SaveRun& run);

// "0000:03:00.0 -> DIR/0000:03:00.0 (4096 bytes, 15b3:1013)" per saved function.
void print_saved(std::ostream& out, const SaveRun& run);

}  // namespace openflint::mst
