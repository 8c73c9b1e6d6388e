// SharedLibrary: RAII owner of a dlopen()ed library, for dependencies loaded only when a command needs them.
#pragma once

#include <bit>
#include <string>

#include "core/Result.h"

namespace openflint {

class SharedLibrary {
 public:
  // dlopen(soname) with RTLD_NOW | RTLD_LOCAL. NotSupported, with dlerror()'s text, when the
  // library (or one it needs) cannot be loaded.
  [[nodiscard]] static Result<SharedLibrary> open(const std::string& soname);

  SharedLibrary(SharedLibrary&& other) noexcept;
  SharedLibrary& operator=(SharedLibrary&& other) noexcept;
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;
  ~SharedLibrary();

  // The address of `name`, looked up as the dynamic linker would for a library linked at build
  // time: the process's global scope first (so an LD_PRELOAD'ed interposer wins), then this
  // library and its dependencies. NotSupported when neither defines it.
  [[nodiscard]] Result<void*> address(const char* name) const;

  // address() as a function pointer of type F (declare F from the library's own header, e.g.
  // decltype(&::umad_init), so the call is type-checked against its prototype).
  template <typename F>
  [[nodiscard]] Result<F> function(const char* name) const {
    auto found = address(name);
    if (!found) return make_error(std::move(found).error());
    return std::bit_cast<F>(*found);
  }

  // function<F>(name) stored in `slot` (a member of a table of the library's functions).
  template <typename F>
  [[nodiscard]] Result<void> bind(const char* name, F& slot) const {
    auto found = function<F>(name);
    if (!found) return make_error(std::move(found).error());
    slot = *found;
    return {};
  }

  [[nodiscard]] const std::string& soname() const { return soname_; }

 private:
  SharedLibrary(void* handle, std::string soname) : handle_(handle), soname_(std::move(soname)) {}
  void* handle_ = nullptr;
  std::string soname_;
};

}  // namespace openflint
