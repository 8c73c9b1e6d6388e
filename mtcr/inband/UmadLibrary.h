// UmadLibrary: rdma-core's libibumad loaded on the first in-band use, its functions through a table.
#pragma once

#include <infiniband/umad.h>

#include "core/Result.h"
#include "core/SharedLibrary.h"

namespace openflint {

// The libibumad functions UmadPort calls, typed by the real header's prototypes.
struct UmadFunctions {
  decltype(&::umad_init) init = nullptr;
  decltype(&::umad_open_port) open_port = nullptr;
  decltype(&::umad_close_port) close_port = nullptr;
  decltype(&::umad_size) size = nullptr;
  decltype(&::umad_register) register_agent = nullptr;
  decltype(&::umad_unregister) unregister_agent = nullptr;
  decltype(&::umad_get_issm_path) get_issm_path = nullptr;
  decltype(&::umad_get_mad) get_mad = nullptr;
  decltype(&::umad_set_addr) set_addr = nullptr;
  decltype(&::umad_send) send = nullptr;
  decltype(&::umad_recv) recv = nullptr;
  decltype(&::umad_status) status = nullptr;
  decltype(&::umad_get_mad_addr) get_mad_addr = nullptr;
};

// Tools that never go in-band (flint -i IMG, fwburn -wrimage, ...) start on a host without
// rdma-core: the library is dlopen()ed here, not linked. Symbols resolve as a linked library's
// would, so ibsim's LD_PRELOAD'ed umad2sim (and any preload defining umad_*) still applies.
class UmadLibrary {
 public:
  static constexpr const char* kSoname = "libibumad.so.3";

  // The process's one table, loaded on the first call (thread-safe) and kept until exit; the
  // load's error (NotSupported: "in-band access needs rdma-core's libibumad (apt install
  // libibumad3): <dlerror>") is returned on every call.
  [[nodiscard]] static Result<const UmadFunctions*> functions();

  // Loads `soname` and resolves the table (exposed for tests: a missing library's message).
  [[nodiscard]] static Result<UmadLibrary> load(const char* soname);

  [[nodiscard]] const UmadFunctions& table() const { return table_; }

 private:
  UmadLibrary(SharedLibrary library, UmadFunctions table) : library_(std::move(library)), table_(table) {}
  SharedLibrary library_;
  UmadFunctions table_;
};

}  // namespace openflint
