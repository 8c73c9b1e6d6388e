// UmadLibrary: dlopen libibumad.so.3 once and resolve the functions UmadPort uses.
#include "mtcr/inband/UmadLibrary.h"

namespace openflint {

namespace {

Error missing_umad(const Error& why) {
  return Error(ErrorCode::NotSupported,
               "in-band access needs rdma-core's libibumad (apt install libibumad3): " + why.message());
}

}  // namespace

Result<UmadLibrary> UmadLibrary::load(const char* soname) {
  auto library = SharedLibrary::open(soname);
  if (!library) return make_error(missing_umad(library.error()));
  UmadFunctions t;
  for (auto resolved : {library->bind("umad_init", t.init),
                        library->bind("umad_open_port", t.open_port),
                        library->bind("umad_close_port", t.close_port),
                        library->bind("umad_size", t.size),
                        library->bind("umad_register", t.register_agent),
                        library->bind("umad_unregister", t.unregister_agent),
                        library->bind("umad_get_issm_path", t.get_issm_path),
                        library->bind("umad_get_mad", t.get_mad),
                        library->bind("umad_set_addr", t.set_addr),
                        library->bind("umad_send", t.send),
                        library->bind("umad_recv", t.recv),
                        library->bind("umad_status", t.status),
                        library->bind("umad_get_mad_addr", t.get_mad_addr)}) {
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
