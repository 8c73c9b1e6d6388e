// IbDiagLibrary: dlopen libibmad.so.5 and libibnetdisc.so.5 once and resolve the functions the fabric code uses.
#include "fabric/IbDiagLibrary.h"

namespace openflint {

namespace {

Error missing_diag(const Error& why) {
  return Error(ErrorCode::NotSupported,
               "fabric access needs rdma-core's libibnetdisc and libibmad (apt install libibnetdisc5 libibmad5): " +
                   why.message());
}

}  // namespace

Result<IbDiagLibrary> IbDiagLibrary::load() {
  auto mad = SharedLibrary::open("libibmad.so.5");
  if (!mad) return make_error(missing_diag(mad.error()));
  auto netdisc = SharedLibrary::open("libibnetdisc.so.5");
  if (!netdisc) return make_error(missing_diag(netdisc.error()));
  IbDiagFunctions t;
  for (auto resolved : {netdisc->bind("ibnd_discover_fabric", t.discover_fabric),
                        netdisc->bind("ibnd_destroy_fabric", t.destroy_fabric),
                        mad->bind("mad_get_field", t.get_field),
                        mad->bind("mad_decode_field", t.decode_field),
                        mad->bind("mad_rpc_open_port", t.rpc_open_port),
                        mad->bind("mad_rpc_close_port", t.rpc_close_port),
                        mad->bind("pma_query_via", t.pma_query)}) {
    if (!resolved) return make_error(missing_diag(resolved.error()));
  }
  return IbDiagLibrary(std::move(*mad), std::move(*netdisc), t);
}

Result<const IbDiagFunctions*> IbDiagLibrary::functions() {
  static const Result<IbDiagLibrary> loaded = load();  // initialised once, thread-safe
  if (!loaded) return make_error(loaded.error());
  return &loaded->table_;
}

}  // namespace openflint
