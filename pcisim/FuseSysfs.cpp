// FuseSysfs: path lookup, the FUSE operations, and the mount/loop/unmount lifecycle.
#include "pcisim/FuseSysfs.h"
#include "pcisim/ResetMethods.h"

#define FUSE_USE_VERSION 312
#include <fuse.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <future>
#include <mutex>
#include <string>
#include <thread>

#include "mtcr/pci/PciFunctionList.h"
#include "pcisim/SysfsAttributes.h"

namespace openflint::pcisim {

struct FuseSysfs::State {
  std::vector<ServedDevice> devices;
  std::vector<std::string> names;  // "0000:03:00.0", by index
  std::vector<std::unique_ptr<sim::PciConfigSpace>> configs;
  std::vector<std::unique_ptr<ResetMethods>> resets;  // per device: reset_method
  std::vector<std::string> drivers;  // every driver name any device was bound to at mount
  std::mutex bind_mutex;
  std::vector<std::string> bound;    // per device: the driver bound now ("" none)
  fuse* session = nullptr;
  fuse_loop_config* loop_config = nullptr;
  std::thread loop;
  std::future<void> loop_done;
  unsigned connection = 0;  // the FUSE connection's minor number (fusectl's folder name)
};

namespace {

using State = FuseSysfs::State;
constexpr std::string_view kConfig = "config";
constexpr std::string_view kResource0 = "resource0";
constexpr std::string_view kReset = "reset";
constexpr std::string_view kResetMethod = "reset_method";
constexpr std::string_view kDriver = "driver";
constexpr std::string_view kVpd = "vpd";

// libfuse logs to stderr by default; a library does not print, so the last message is kept for
// the error that follows it.
std::mutex g_log_mutex;
std::string g_last_log;

void capture_log(enum fuse_log_level, const char* format, va_list args) {
  char buf[512];
  std::vsnprintf(buf, sizeof buf, format, args);
  std::lock_guard guard(g_log_mutex);
  g_last_log = buf;
  while (!g_last_log.empty() && g_last_log.back() == '\n') g_last_log.pop_back();
}

std::string take_last_log() {
  std::lock_guard guard(g_log_mutex);
  return std::exchange(g_last_log, {});
}

// What a path names: the root, devices/, devices/<BDF>/, or a file in it.
struct Node {
  enum class Kind { Root, DevicesDir, DeviceDir, Config, Vpd, Attribute, Link, Reset, ResetMethod, DriverLink, DriversDir, DriverDir, Bind } kind;
  std::size_t device = 0;
  std::string_view file;
};

State& state() { return *static_cast<State*>(fuse_get_context()->private_data); }

std::string bound_driver(State& s, std::size_t device) {
  std::lock_guard guard(s.bind_mutex);
  return s.bound[device];
}

// drivers/, drivers/<name>/, drivers/<name>/{bind,unbind} (`device` indexes State::drivers).
std::optional<Node> lookup_drivers(State& s, std::string_view path) {
  if (path.empty()) return Node{Node::Kind::DriversDir, 0, {}};
  if (path.front() != '/') return std::nullopt;
  path.remove_prefix(1);
  const auto slash = path.find('/');
  const auto it = std::find(s.drivers.begin(), s.drivers.end(), path.substr(0, slash));
  if (it == s.drivers.end()) return std::nullopt;
  const auto index = static_cast<std::size_t>(it - s.drivers.begin());
  if (slash == std::string_view::npos) return Node{Node::Kind::DriverDir, index, {}};
  const std::string_view file = path.substr(slash + 1);
  if (file == "bind" || file == "unbind") return Node{Node::Kind::Bind, index, file};
  return std::nullopt;
}

std::optional<Node> lookup(State& s, std::string_view path) {
  if (path == "/") return Node{Node::Kind::Root, 0, {}};
  constexpr std::string_view kDrivers = "/drivers";
  if (path.starts_with(kDrivers)) return lookup_drivers(s, path.substr(kDrivers.size()));
  constexpr std::string_view kDevices = "/devices";
  if (!path.starts_with(kDevices)) return std::nullopt;
  path.remove_prefix(kDevices.size());
  if (path.empty()) return Node{Node::Kind::DevicesDir, 0, {}};
  if (path.front() != '/') return std::nullopt;
  path.remove_prefix(1);
  const auto slash = path.find('/');
  const std::string_view name = path.substr(0, slash);
  const auto it = std::find(s.names.begin(), s.names.end(), name);
  if (it == s.names.end()) return std::nullopt;
  const auto index = static_cast<std::size_t>(it - s.names.begin());
  if (slash == std::string_view::npos) return Node{Node::Kind::DeviceDir, index, {}};
  const std::string_view file = path.substr(slash + 1);
  if (file == kConfig) return Node{Node::Kind::Config, index, file};
  if (file == kVpd && !s.configs[index]->vpd().empty()) return Node{Node::Kind::Vpd, index, file};
  if (file == kResource0 && s.devices[index].resource0_target) return Node{Node::Kind::Link, index, file};
  if (file == kReset) return Node{Node::Kind::Reset, index, file};
  if (file == kResetMethod) return Node{Node::Kind::ResetMethod, index, file};
  if (file == kDriver && !bound_driver(s, index).empty()) return Node{Node::Kind::DriverLink, index, file};
  for (std::string_view a : kAttributeNames) {
    if (file == a) return Node{Node::Kind::Attribute, index, a};
  }
  return std::nullopt;
}

// The sysfs vpd file: the VPD rounded up to 256 bytes (reads past the end tag see zeros).
std::size_t vpd_file_size(State& s, std::size_t device) {
  return (s.configs[device]->vpd().size() + 255) / 256 * 256;
}

std::string attribute_text(State& s, const Node& n) {
  return sysfs_attribute(*s.configs[n.device], n.file).value_or("");
}

int op_getattr(const char* path, struct stat* st, fuse_file_info*) {
  State& s = state();
  const auto node = lookup(s, path);
  if (!node) return -ENOENT;
  std::memset(st, 0, sizeof *st);
  st->st_uid = getuid();
  st->st_gid = getgid();
  switch (node->kind) {
    case Node::Kind::Root:
    case Node::Kind::DevicesDir:
    case Node::Kind::DriversDir:
    case Node::Kind::DriverDir:
    case Node::Kind::DeviceDir: st->st_mode = S_IFDIR | 0755; st->st_nlink = 2; break;
    case Node::Kind::Bind: st->st_mode = S_IFREG | 0200; st->st_size = 4096; break;
    case Node::Kind::DriverLink:
      st->st_mode = S_IFLNK | 0777;
      st->st_size = static_cast<off_t>(("../../drivers/" + bound_driver(s, node->device)).size());
      break;
    case Node::Kind::Config: st->st_mode = S_IFREG | 0644; st->st_size = sim::PciConfigSpace::kSize; break;
    case Node::Kind::Vpd: st->st_mode = S_IFREG | 0600; st->st_size = static_cast<off_t>(vpd_file_size(s, node->device)); break;
    case Node::Kind::Reset: st->st_mode = S_IFREG | 0200; st->st_size = 4096; break;  // as sysfs shows it
    case Node::Kind::ResetMethod: st->st_mode = S_IFREG | 0644; st->st_size = 4096; break;
    case Node::Kind::Attribute:
      st->st_mode = S_IFREG | 0444;
      st->st_size = static_cast<off_t>(attribute_text(s, *node).size());
      break;
    case Node::Kind::Link:
      st->st_mode = S_IFLNK | 0777;
      st->st_size = static_cast<off_t>(s.devices[node->device].resource0_target->string().size());
      break;
  }
  st->st_nlink = std::max<nlink_t>(st->st_nlink, 1);
  return 0;
}

int op_readdir(const char* path, void* buf, fuse_fill_dir_t fill, off_t, fuse_file_info*, fuse_readdir_flags) {
  State& s = state();
  const auto node = lookup(s, path);
  if (!node) return -ENOENT;
  auto add = [&](std::string_view name) { fill(buf, std::string(name).c_str(), nullptr, 0, fuse_fill_dir_flags{}); };
  add(".");
  add("..");
  switch (node->kind) {
    case Node::Kind::Root: add("devices"); add("drivers"); return 0;
    case Node::Kind::DriversDir:
      for (const std::string& name : s.drivers) add(name);
      return 0;
    case Node::Kind::DriverDir: add("bind"); add("unbind"); return 0;
    case Node::Kind::DevicesDir:
      for (const std::string& name : s.names) add(name);
      return 0;
    case Node::Kind::DeviceDir:
      add(kConfig);
      if (!s.configs[node->device]->vpd().empty()) add(kVpd);
      for (std::string_view a : kAttributeNames) add(a);
      if (s.devices[node->device].resource0_target) add(kResource0);
      add(kReset);
      add(kResetMethod);
      if (!bound_driver(s, node->device).empty()) add(kDriver);
      return 0;
    default: return -ENOTDIR;
  }
}

int op_open(const char* path, fuse_file_info* fi) {
  const auto node = lookup(state(), path);
  if (!node) return -ENOENT;
  if (node->kind == Node::Kind::Bind) return (fi->flags & O_ACCMODE) == O_RDONLY ? -EACCES : 0;
  if (node->kind != Node::Kind::Config && node->kind != Node::Kind::Attribute && node->kind != Node::Kind::Reset &&
      node->kind != Node::Kind::ResetMethod && node->kind != Node::Kind::Vpd)
    return -EISDIR;
  if ((node->kind == Node::Kind::Attribute || node->kind == Node::Kind::Vpd) && (fi->flags & O_ACCMODE) != O_RDONLY)
    return -EACCES;  // the VPD EEPROM is write-protected
  if (node->kind == Node::Kind::Reset && (fi->flags & O_ACCMODE) == O_RDONLY) return -EACCES;
  if (const auto& hook = state().devices[node->device].on_open) hook();
  fi->direct_io = 1;  // every access reaches us: config reads have side effects, ids may change
  fi->keep_cache = 0;
  return 0;
}

// Clips [off, off + size) to the 4 KiB config space; 0 bytes at or past its end.
std::size_t config_span(off_t off, std::size_t size) {
  if (off < 0 || off >= static_cast<off_t>(sim::PciConfigSpace::kSize)) return 0;
  return std::min<std::size_t>(size, sim::PciConfigSpace::kSize - static_cast<std::size_t>(off));
}

int op_read(const char* path, char* buf, std::size_t size, off_t off, fuse_file_info*) {
  State& s = state();
  const auto node = lookup(s, path);
  if (!node) return -ENOENT;
  if (node->kind == Node::Kind::Config) {
    const std::size_t n = config_span(off, size);
    if (n == 0) return 0;
    auto bytes = std::span(reinterpret_cast<std::uint8_t*>(buf), n);
    if (!s.configs[node->device]->read(static_cast<std::uint32_t>(off), bytes)) return -EIO;
    return static_cast<int>(n);
  }
  if (node->kind == Node::Kind::Vpd) {  // the VPD, then zeros to the file's size
    const auto& vpd = s.configs[node->device]->vpd();
    const std::size_t end = vpd_file_size(s, node->device);
    if (off < 0 || static_cast<std::size_t>(off) >= end) return 0;
    const std::size_t n = std::min(size, end - static_cast<std::size_t>(off));
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = static_cast<std::size_t>(off) + i;
      buf[i] = at < vpd.size() ? static_cast<char>(vpd[at]) : '\0';
    }
    return static_cast<int>(n);
  }
  if (node->kind != Node::Kind::Attribute && node->kind != Node::Kind::ResetMethod) return -EISDIR;
  const std::string text =
      node->kind == Node::Kind::ResetMethod ? s.resets[node->device]->text() : attribute_text(s, *node);
  if (off < 0 || static_cast<std::size_t>(off) >= text.size()) return 0;
  const std::size_t n = std::min(size, text.size() - static_cast<std::size_t>(off));
  std::memcpy(buf, text.data() + off, n);
  return static_cast<int>(n);
}

// The kernel's reset attribute: "1" resets the function by the first method reset_method
// selects (pcisim/ResetMethods.h: what each does to the device); anything else is EINVAL.
int reset_device(const ServedDevice& d, sim::PciConfigSpace& config, const ResetMethods& methods, std::string_view text) {
  const std::string_view value = text.substr(0, text.find_first_of("\n"));
  if (value != "1") return -EINVAL;
  (void)methods.reset(*d.device);
  if (d.reset_clears_config) config.clear_host_settings();
  if (d.on_reset) d.on_reset();
  return static_cast<int>(text.size());
}

// drivers/<name>/bind or unbind with a BDF, as the kernel's: unbind a device bound to this driver
// (else ENODEV), bind an unbound device (EBUSY when bound elsewhere, ENODEV when unknown).
int bind_device(State& s, const Node& n, std::string_view text) {
  const std::string_view bdf = text.substr(0, text.find_first_of("\n"));
  const auto it = std::find(s.names.begin(), s.names.end(), bdf);
  if (it == s.names.end()) return -ENODEV;
  const auto index = static_cast<std::size_t>(it - s.names.begin());
  std::string now_bound;
  {
    std::lock_guard guard(s.bind_mutex);
    std::string& bound = s.bound[index];
    const std::string& driver = s.drivers[n.device];
    if (n.file == "unbind") {
      if (bound != driver) return -ENODEV;
      bound.clear();
    } else {
      if (!bound.empty()) return bound == driver ? -EEXIST : -EBUSY;
      bound = driver;
    }
    now_bound = bound;
  }
  if (s.devices[index].on_driver_change) s.devices[index].on_driver_change(now_bound);
  return static_cast<int>(text.size());
}

int op_write(const char* path, const char* buf, std::size_t size, off_t off, fuse_file_info*) {
  State& s = state();
  const auto node = lookup(s, path);
  if (!node) return -ENOENT;
  if (node->kind == Node::Kind::Bind) return bind_device(s, *node, std::string_view(buf, size));
  if (node->kind == Node::Kind::Reset)
    return reset_device(s.devices[node->device], *s.configs[node->device], *s.resets[node->device], std::string_view(buf, size));
  if (node->kind == Node::Kind::ResetMethod) {
    const int r = s.resets[node->device]->select(std::string_view(buf, size));
    return r < 0 ? r : static_cast<int>(size);
  }
  if (node->kind != Node::Kind::Config) return -EACCES;
  const std::size_t n = config_span(off, size);
  if (n == 0) return size == 0 ? 0 : -ENOSPC;
  auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(buf), n);
  if (!s.configs[node->device]->write(static_cast<std::uint32_t>(off), bytes)) return -EIO;
  return static_cast<int>(n);
}

// fsync of a device's file: the client's save point (mtcr sync_pci_config, at the end of every
// command; the kernel's sysfs answers it as a no-op). The device's on_sync runs before the answer.
int op_fsync(const char* path, int, fuse_file_info*) {
  State& s = state();
  const auto node = lookup(s, path);
  if (!node) return -ENOENT;
  if (node->kind != Node::Kind::Config && node->kind != Node::Kind::Attribute && node->kind != Node::Kind::Reset &&
      node->kind != Node::Kind::ResetMethod && node->kind != Node::Kind::Vpd)
    return 0;
  const auto& hook = s.devices[node->device].on_sync;
  return !hook || hook() ? 0 : -EIO;
}

int op_truncate(const char* path, off_t, fuse_file_info*) {
  return lookup(state(), path) ? 0 : -ENOENT;  // sysfs ignores O_TRUNC on attributes
}

int op_readlink(const char* path, char* buf, std::size_t size) {
  State& s = state();
  const auto node = lookup(s, path);
  if (!node || (node->kind != Node::Kind::Link && node->kind != Node::Kind::DriverLink)) return -EINVAL;
  if (size == 0) return -EINVAL;
  const std::string target = node->kind == Node::Kind::DriverLink ? "../../drivers/" + bound_driver(s, node->device)
                                                                   : s.devices[node->device].resource0_target->string();
  const std::size_t n = std::min(size - 1, target.size());
  std::memcpy(buf, target.data(), n);
  buf[n] = '\0';
  return 0;
}

void* op_init(fuse_conn_info*, fuse_config* cfg) {
  cfg->direct_io = 1;
  cfg->kernel_cache = 0;
  cfg->attr_timeout = 0;   // `device` changes with the boot state
  cfg->entry_timeout = 0;
  return fuse_get_context()->private_data;
}

fuse_operations make_operations() {
  fuse_operations ops{};
  ops.getattr = op_getattr;
  ops.readlink = op_readlink;
  ops.truncate = op_truncate;
  ops.open = op_open;
  ops.read = op_read;
  ops.write = op_write;
  ops.fsync = op_fsync;
  ops.readdir = op_readdir;
  ops.init = op_init;
  return ops;
}

Result<void> check_fuse_device() {
  struct stat st {};
  if (::stat("/dev/fuse", &st) != 0) {
    return make_error(ErrorCode::NotSupported, "/dev/fuse is missing: FUSE is not available here");
  }
  if (::access("/dev/fuse", R_OK | W_OK) != 0) {
    return make_error(ErrorCode::PermissionDenied, std::string("/dev/fuse: ") + std::strerror(errno));
  }
  return {};
}

// Writes fusectl's abort for the connection, mounting fusectl first when nobody has (systemd
// does at boot; containers often do not). Best effort: false when it cannot.
bool abort_connection(unsigned connection) {
  const std::filesystem::path dir = "/sys/fs/fuse/connections";
  const std::filesystem::path file = dir / std::to_string(connection) / "abort";
  std::error_code ec;
  if (!std::filesystem::exists(file, ec) && std::filesystem::is_directory(dir, ec)) {
    (void)::mount("fusectl", dir.c_str(), "fusectl", 0, nullptr);
  }
  std::ofstream out(file);
  if (!out) return false;
  out << "1\n";
  return static_cast<bool>(out);
}

}  // namespace

Result<std::unique_ptr<FuseSysfs>> FuseSysfs::mount(const std::filesystem::path& mount_point,
                                                    std::vector<ServedDevice> devices) {
  OF_TRY(check_fuse_device());
  // A dead mount left there by a killed server (every access fails with ENOTCONN): detach it, as
  // `fusermount3 -u` would, and serve there again.
  if (const auto dead = dead_mount_at(mount_point)) {
    const std::string where = dead->string();
    std::filesystem::path wanted = mount_point.lexically_normal();
    if (wanted.filename().empty()) wanted = wanted.parent_path();
    if (*dead != wanted || ::umount2(where.c_str(), MNT_DETACH) != 0)
      return make_error(ErrorCode::Io, where + " is a dead FUSE mount (Transport endpoint is not connected) that " +
                                           "cannot be detached here: unmount it with 'fusermount3 -u " + where + "'");
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(mount_point, ec)) {
    return make_error(ErrorCode::NotFound, "mount point " + mount_point.string() + " is not a directory");
  }
  auto s = std::make_unique<State>();
  for (const ServedDevice& d : devices) {
    if (d.device == nullptr || d.bar0_size == 0 || (d.bar0_size & (d.bar0_size - 1)) != 0) {
      return make_error(ErrorCode::InvalidArgument, "serving " + d.address.to_string() +
                                                        ": needs a device and a power-of-two BAR0 size");
    }
    const std::string name = d.address.to_string();
    if (std::find(s->names.begin(), s->names.end(), name) != s->names.end()) {
      return make_error(ErrorCode::InvalidArgument, "PCI address " + name + " served twice");
    }
    // BARs are naturally aligned; give each device its own window from 0xe0000000 up.
    std::uint64_t base = 0xe0000000;
    for (const auto& c : s->configs) base = std::max(base, c->options().bar0_base + c->options().bar0_size);
    base = (base + d.bar0_size - 1) & ~(d.bar0_size - 1);
    s->configs.push_back(std::make_unique<sim::PciConfigSpace>(
        *d.device, sim::PciConfigSpaceOptions{.bar0_base = base, .bar0_size = d.bar0_size, .interrupt_line = d.irq}));
    s->names.push_back(name);
    s->bound.push_back(d.driver);
    if (!d.driver.empty() && std::find(s->drivers.begin(), s->drivers.end(), d.driver) == s->drivers.end())
      s->drivers.push_back(d.driver);
  }
  s->devices = std::move(devices);
  for (const ServedDevice& d : s->devices) {
    const bool alone = std::none_of(s->devices.begin(), s->devices.end(), [&](const ServedDevice& o) {
      return &o != &d && o.address.domain == d.address.domain && o.address.bus == d.address.bus;
    });
    s->resets.push_back(std::make_unique<ResetMethods>(alone));
  }

  static std::once_flag log_once;
  std::call_once(log_once, [] { fuse_set_log_func(capture_log); });
  const fuse_operations ops = make_operations();
  fuse_args args = FUSE_ARGS_INIT(0, nullptr);
  (void)fuse_opt_add_arg(&args, "openflint-pcisim");
  s->session = fuse_new(&args, &ops, sizeof ops, s.get());
  fuse_opt_free_args(&args);
  if (s->session == nullptr) return make_error(ErrorCode::Internal, "fuse_new failed: " + take_last_log());
  if (fuse_mount(s->session, mount_point.c_str()) != 0) {
    fuse_destroy(s->session);
    return make_error(ErrorCode::PermissionDenied, "mounting FUSE at " + mount_point.string() + ": " + take_last_log());
  }
  s->loop_config = fuse_loop_cfg_create();
  fuse_loop_cfg_set_clone_fd(s->loop_config, 0);
  fuse_loop_cfg_set_max_threads(s->loop_config, 8);
  std::promise<void> done;
  s->loop_done = done.get_future();
  s->loop = std::thread([session = s->session, cfg = s->loop_config, done = std::move(done)]() mutable {
    (void)fuse_loop_mt(session, cfg);
    done.set_value();
  });
  // Only now: a stat of the mount waits for the kernel's INIT, which the loop answers.
  struct stat st {};
  if (::stat(mount_point.c_str(), &st) == 0) s->connection = minor(st.st_dev);
  return std::unique_ptr<FuseSysfs>(new FuseSysfs(mount_point, std::move(s)));
}

FuseSysfs::FuseSysfs(std::filesystem::path mount_point, std::unique_ptr<State> state)
    : mount_point_(std::move(mount_point)), state_(std::move(state)) {}

FuseSysfs::~FuseSysfs() {
  fuse_exit(state_->session);
  fuse_unmount(state_->session);
  // A client still holding a file keeps the detached connection (and the loop) alive: after a
  // grace period abort the connection through fusectl, as an admin would.
  constexpr auto kGrace = std::chrono::seconds(2);
  if (state_->loop_done.wait_for(kGrace) != std::future_status::ready) abort_connection(state_->connection);
  if (state_->loop_done.wait_for(kGrace) != std::future_status::ready) {
    // Still stuck (no fusectl): leave the loop and everything it uses behind rather than hang
    // the caller; the connection goes when the last client file closes.
    state_->loop.detach();
    (void)state_.release();
    return;
  }
  state_->loop.join();
  fuse_destroy(state_->session);
  fuse_loop_cfg_destroy(state_->loop_config);
}

std::uint64_t FuseSysfs::gateway_transactions(std::size_t index) const {
  return index < state_->configs.size() ? state_->configs[index]->gateway_transactions() : 0;
}

std::uint64_t FuseSysfs::icmd_commands(std::size_t index) const {
  return index < state_->configs.size() ? state_->configs[index]->icmd_commands() : 0;
}

}  // namespace openflint::pcisim
