// UmadLibrary: dlopen libibumad.so.3 once and resolve the functions UmadPort uses.
#include "mtcr/inband/UmadLibrary.h"

namespace openflint {

namespace {

template <typename F>
Result<void> resolve_umad(const SharedLibrary& library, const char* name, F& slot) {
  auto found = library.function<F>(name);
  if (!found) return make_error(std::move(found).error());
  slot = *found;
  return {};
}

Error missing_umad(const Error& why) {
  return Error(ErrorCode::NotSupported,
               "in-band access needs rdma-core's libibumad (apt install libibumad3): " + why.message());
}

}  // namespace

Result<UmadLibrary> UmadLibrary::load(const char* soname) {
  auto library = SharedLibrary::open(soname);
  if (!library) return make_error(missing_umad(library.error()));
  UmadFunctions t;
  for (auto resolved : {resolve_umad(*library, "umad_init", t.init),
                        resolve_umad(*library, "umad_open_port", t.open_port),
                        resolve_umad(*library, "umad_close_port", t.close_port),
                        resolve_umad(*library, "umad_size", t.size),
                        resolve_umad(*library, "umad_register", t.register_agent),
                        resolve_umad(*library, "umad_unregister", t.unregister_agent),
                        resolve_umad(*library, "umad_get_issm_path", t.get_issm_path),
                        resolve_umad(*library, "umad_get_mad", t.get_mad),
                        resolve_umad(*library, "umad_set_addr", t.set_addr),
                        resolve_umad(*library, "umad_send", t.send),
                        resolve_umad(*library, "umad_recv", t.recv),
                        resolve_umad(*library, "umad_status", t.status),
                        resolve_umad(*library, "umad_get_mad_addr", t.get_mad_addr)}) {
    if (!resolved) return make_error(missing_umad(resolved.error()));
  }
  return UmadLibrary(std::move(*library), t);
}

Result<const UmadFunctions*> UmadLibrary::functions() {
  static const Result<UmadLibrary> loaded = load(kSoname);  // C++11 statics: initialised once, thread-safe
  if (!loaded) return make_error(loaded.error());
  return &loaded->table();
}

}  // namespace openflint
