// IbDiagLibrary: rdma-core's libibnetdisc and libibmad loaded on the first fabric sweep or PerfMgt query.
#pragma once

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>

#include "core/Result.h"
#include "core/SharedLibrary.h"

namespace openflint {

// The functions FabricDiscovery and PortCounters call, typed by the real headers' prototypes.
struct IbDiagFunctions {
  decltype(&::ibnd_discover_fabric) discover_fabric = nullptr;
  decltype(&::ibnd_destroy_fabric) destroy_fabric = nullptr;
  decltype(&::mad_get_field) get_field = nullptr;
  decltype(&::mad_decode_field) decode_field = nullptr;
  decltype(&::mad_rpc_open_port) rpc_open_port = nullptr;
  decltype(&::mad_rpc_close_port) rpc_close_port = nullptr;
  decltype(&::pma_query_via) pma_query = nullptr;
};

// The tools that link fabric/ only for its reports or name files (flint, mst) start without
// rdma-core: the libraries are dlopen()ed on the first sweep, not linked (like UmadLibrary).
class IbDiagLibrary {
 public:
  // The process's one table, loaded on the first call (thread-safe) and kept until exit.
  // NotSupported when a library is missing: "fabric access needs rdma-core's libibnetdisc and
  // libibmad (apt install libibnetdisc5 libibmad5): <dlerror>".
  [[nodiscard]] static Result<const IbDiagFunctions*> functions();

 private:
  IbDiagLibrary(SharedLibrary mad, SharedLibrary netdisc, IbDiagFunctions table)
      : mad_(std::move(mad)), netdisc_(std::move(netdisc)), table_(table) {}
  [[nodiscard]] static Result<IbDiagLibrary> load();
  SharedLibrary mad_;
  SharedLibrary netdisc_;
  IbDiagFunctions table_;
};

}  // namespace openflint
