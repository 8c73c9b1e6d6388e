// SharedLibrary: dlopen/dlsym/dlclose behind Result and RAII.
#include "core/SharedLibrary.h"

#include <dlfcn.h>

namespace openflint {

namespace {
std::string last_dl_error() {
  const char* text = ::dlerror();
  return text != nullptr ? std::string(text) : std::string("unknown dynamic loader error");
}
}  // namespace

Result<SharedLibrary> SharedLibrary::open(const std::string& soname) {
  (void)::dlerror();  // clear a stale message
  void* handle = ::dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return make_error(ErrorCode::NotSupported, last_dl_error());
  return SharedLibrary(handle, soname);
}

SharedLibrary::SharedLibrary(SharedLibrary&& other) noexcept
    : handle_(other.handle_), soname_(std::move(other.soname_)) {
  other.handle_ = nullptr;
}

SharedLibrary& SharedLibrary::operator=(SharedLibrary&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) (void)::dlclose(handle_);
    handle_ = other.handle_;
    soname_ = std::move(other.soname_);
    other.handle_ = nullptr;
  }
  return *this;
}

SharedLibrary::~SharedLibrary() {
  if (handle_ != nullptr) (void)::dlclose(handle_);
}

Result<void*> SharedLibrary::address(const char* name) const {
  if (void* global = ::dlsym(RTLD_DEFAULT, name); global != nullptr) return global;
  (void)::dlerror();
  if (void* own = ::dlsym(handle_, name); own != nullptr) return own;
  return make_error(ErrorCode::NotSupported, soname_ + " has no " + name + ": " + last_dl_error());
}

}  // namespace openflint
