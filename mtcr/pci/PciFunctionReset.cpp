// PciFunctionReset: writes the sysfs reset attribute of a PCI function.
#include "mtcr/pci/PciFunctionReset.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace openflint {

Result<void> reset_pci_function(const std::filesystem::path& device_dir) {
  const std::filesystem::path file = device_dir / "reset";
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT) return make_error(ErrorCode::NotSupported, file.string() + " does not exist: the function cannot be reset by the kernel");
    return make_error(err == EACCES || err == EPERM ? ErrorCode::PermissionDenied : ErrorCode::Io,
                      "cannot open " + file.string() + ": " + std::strerror(err));
  }
  const ssize_t n = ::write(fd, "1", 1);
  const int err = errno;
  ::close(fd);
  if (n != 1)
    return make_error(err == EACCES || err == EPERM ? ErrorCode::PermissionDenied : ErrorCode::Io,
                      "resetting through " + file.string() + ": " + std::strerror(err));
  return {};
}

}  // namespace openflint
