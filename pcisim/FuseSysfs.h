// FuseSysfs: an in-process FUSE server showing simulated devices as a sysfs PCI tree.
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "core/Result.h"
#include "pcisim/ServedDevice.h"

namespace openflint::pcisim {

// Serves, at a mount point, what libpci's linux-sysfs method (sysfs.path=MOUNT) and lspci read:
//   devices/<DDDD:BB:DD.F>/config    4096 bytes, direct_io: every pread/pwrite reaches the
//                                    device's sim::PciConfigSpace with its side effects
//   devices/<BDF>/{vendor,device,class,revision,subsystem_vendor,subsystem_device,irq,resource}
//   devices/<BDF>/resource0          a symlink to ServedDevice::resource0_target, when given
//   devices/<BDF>/reset              write "1": the function resets by the first method of
//   devices/<BDF>/reset_method       "flr bus" (bus only when alone on its bus), selectable as
//                                    the kernel's: an FLR leaves the firmware running, a bus
//                                    reset reloads it when armed (pcisim/ResetMethods.h)
//   devices/<BDF>/driver             while a driver is bound: a symlink to ../../drivers/<name>
//   drivers/<name>/{bind,unbind}     write a BDF to bind/unbind it, as the kernel's files
// fsync of a device's file runs its ServedDevice::on_sync (the kernel's sysfs ignores fsync).
// A dead FUSE mount at the mount point (a killed server's) is detached first.
// The FUSE loop runs multi-threaded in a thread of this process (fuse_loop_mt). The destructor
// unmounts and joins it. Clients must close their files under the mount first (libpci:
// destroy the PciConfigAccess): a lazily unmounted FUSE connection with open files keeps the
// loop alive. After 2 s the destructor aborts the connection through fusectl (the forgotten
// files then fail with ENOTCONN); if it cannot, it leaks the loop rather than hang.
// Errors: NotSupported when /dev/fuse is missing; PermissionDenied when it cannot be opened or
// the kernel refuses the mount (no CAP_SYS_ADMIN, e.g. in a default container) — tests skip; Io
// for a dead mount that cannot be detached.
class FuseSysfs {
 public:
  [[nodiscard]] static Result<std::unique_ptr<FuseSysfs>> mount(const std::filesystem::path& mount_point,
                                                               std::vector<ServedDevice> devices);
  FuseSysfs(const FuseSysfs&) = delete;
  FuseSysfs& operator=(const FuseSysfs&) = delete;
  ~FuseSysfs();

  [[nodiscard]] const std::filesystem::path& mount_point() const { return mount_point_; }
  // Gateway transactions (CR-space dwords) the device at `index` served through config space.
  [[nodiscard]] std::uint64_t gateway_transactions(std::size_t index) const;
  // ICMD commands (e.g. MGIR queries) the device at `index` served through its VSEC.
  [[nodiscard]] std::uint64_t icmd_commands(std::size_t index) const;

  struct State;  // the served tree and the FUSE handles (FuseSysfs.cpp)

 private:
  FuseSysfs(std::filesystem::path mount_point, std::unique_ptr<State> state);
  std::filesystem::path mount_point_;
  std::unique_ptr<State> state_;
};

}  // namespace openflint::pcisim
