// Tests: the Linux kernel's own flash state machine (mlxfw_fsm.c with mlxfw_mfa2*.c and lib/xz, built
// from linux-source-6.1 at test time into a shared library with kernel/fsm_harness.c) burns every
// simulated model whose catalog record says "component update" from an MFA2 package flint made.
// The kernel's mlxfw_dev_ops are answered as the mlx5 driver answers them, through openflint's
// register access (RegisterPort: MCQS, MCQI, MCC, MCDA) to the simulated firmware; the kernel's
// polling (msleep) is counted, not slept. Our simulator's MCC error codes are the PRM's, which the
// mlx5 driver passes to the kernel's mlxfw_fsm_state_err table unchanged (docs/packages.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <iostream>

#include "core/BigEndianFields.h"
#include "core/SharedLibrary.h"
#include "devices/DeviceCatalog.h"
#include "fwops/burn/FlashFormat.h"
#include "image/FirmwareImage.h"
#include "image/ImageFormat.h"
#include "image/Mfa2Writer.h"
#include "mtcr/registers/FirmwareFlashRegisters.h"
#include "sim/SimDevice.h"
#include "sim/SimRegisterPort.h"
#include "tests/packages_interop/kernel/fsm_bridge.h"
#include "tests/support/LiveDevice.h"
#include "tests/support/SampleImages.h"
#include "tests/support/SyntheticImage.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

const std::filesystem::path kKernelTarball = "/usr/src/linux-source-6.1.tar.xz";
const std::string kTree = "linux-source-6.1/";
const std::string kMlxfwDir = "drivers/net/ethernet/mellanox/mlxfw/";

// The kernel's flash state machine as a shared library in `dir` (empty after a test failure).
std::filesystem::path build_fsm_library(const std::filesystem::path& dir) {
  std::vector<std::string> tar = {"tar", "-xJf", kKernelTarball.string(), "-C", dir.string()};
  for (const char* f : {"mlxfw.h", "mlxfw_fsm.c", "mlxfw_mfa2.c", "mlxfw_mfa2_tlv_multi.c", "mlxfw_mfa2.h",
                        "mlxfw_mfa2_file.h", "mlxfw_mfa2_format.h", "mlxfw_mfa2_tlv.h", "mlxfw_mfa2_tlv_multi.h"})
    tar.push_back(kTree + kMlxfwDir + f);
  for (const char* f : {"xz_dec_stream.c", "xz_dec_lzma2.c", "xz_crc32.c", "xz_private.h", "xz_stream.h", "xz_lzma2.h"})
    tar.push_back(kTree + "lib/xz/" + f);
  tar.push_back(kTree + "include/linux/xz.h");
  auto untar = run_command(tar);
  EXPECT_EQ(untar.exit_code, 0) << untar.err;
  if (untar.exit_code != 0) return {};
  const auto top = dir / kTree;
  const auto mlxfw = top / kMlxfwDir;
  const auto kernel = std::filesystem::path(OPENFLINT_SOURCE_DIR) / "tests/packages_interop/kernel";
  const auto library = dir / "libmlxfw_fsm.so";
  // The kernel's own mlxfw.h (in its folder, first) rather than the parser test's shim of it.
  auto cc = run_command({"cc", "-std=gnu11", "-O1", "-fPIC", "-shared", "-fvisibility=hidden", "-w",
                         "-I" + mlxfw.string(), "-I" + (kernel / "shim").string(), "-I" + (top / "include").string(),
                         "-I" + kernel.string(), "-o", library.string(), (kernel / "fsm_harness.c").string(),
                         (mlxfw / "mlxfw_fsm.c").string(), (mlxfw / "mlxfw_mfa2.c").string(),
                         (mlxfw / "mlxfw_mfa2_tlv_multi.c").string(), (top / "lib/xz/xz_dec_stream.c").string(),
                         (top / "lib/xz/xz_dec_lzma2.c").string(), (top / "lib/xz/xz_crc32.c").string()});
  EXPECT_EQ(cc.exit_code, 0) << cc.err;
  return cc.exit_code == 0 ? library : std::filesystem::path{};
}

// The kernel's enum mlxfw_fsm_state_err ends at MLXFW_FSM_STATE_ERR_MAX (mlxfw.h).
constexpr int kKernelStateErrMax = 10;

// The mlx5 driver's side of mlxfw_dev_ops (drivers/net/ethernet/mellanox/mlx5/core/fw.c), over
// openflint's RegisterPort, with a log of what the kernel asked for.
struct Mlx5Ops {
  explicit Mlx5Ops(RegisterPort& register_port) : port(&register_port) {}
  RegisterPort* port;
  std::vector<std::string> calls;  // "lock", "query 1", "update 1", "verify 1", "activate", "cancel", "release"
  std::uint64_t blocks = 0;
  std::uint64_t bytes = 0;
  std::uint16_t largest_block = 0;
  std::uint16_t queried_write_size = 0;
  bool in_order = true;  // each block at the offset after the previous one
  std::uint32_t next_offset = 0;
  std::vector<std::string> notices;  // devlink status messages
  std::map<std::uint16_t, std::uint16_t> mcqs_index;  // component identifier -> MCQS index

  std::optional<AccessRegisterTlv> access(std::uint16_t id, std::uint8_t method, std::vector<std::uint8_t> data) {
    auto answer = port->access(id, method, std::move(data));
    if (!answer || answer->status != 0) return std::nullopt;
    return std::move(*answer);
  }
  // The kernel names a component by its MFA2 identifier (1: the boot image) and mlx5 passes it on
  // as MCC's component_index; our simulator lists the boot image at MCQS index 0 with identifier
  // 1, so the index is looked up in MCQS, as mstflint's FwCompsMgr does.
  std::optional<std::uint16_t> index_of(std::uint16_t identifier) {
    if (auto it = mcqs_index.find(identifier); it != mcqs_index.end()) return it->second;
    for (std::uint16_t i = 0; i < 64; ++i) {
      std::vector<std::uint8_t> d(0x10, 0);
      be::put32(d.data(), 0x00, i);
      auto a = access(flash_reg::kMcqs, AccessRegisterTlv::kMethodQuery, d);
      if (!a) return std::nullopt;
      if ((be::get32(a->data.data(), 0x04) & 0xffff) == identifier) return mcqs_index[identifier] = i;
      if ((be::get32(a->data.data(), 0x00) >> 31) != 0) return std::nullopt;
    }
    return std::nullopt;
  }
  std::optional<AccessRegisterTlv> mcc(std::uint8_t instruction, std::uint32_t handle, std::uint16_t index = 0,
                                       std::uint32_t size = 0) {
    std::vector<std::uint8_t> d(0x20, 0);
    be::put32(d.data(), 0x00, instruction);
    be::put32(d.data(), 0x04, index);
    be::put32(d.data(), 0x08, handle);
    be::put32(d.data(), 0x10, size);
    return access(flash_reg::kMcc,
                  instruction == 0 ? AccessRegisterTlv::kMethodQuery : AccessRegisterTlv::kMethodWrite, d);
  }
  int instruct(std::uint8_t instruction, std::uint32_t handle, std::uint16_t identifier = 0, std::uint32_t size = 0) {
    std::uint16_t index = 0;
    if (identifier != 0) {
      auto found = index_of(identifier);
      if (!found) return -EINVAL;
      index = *found;
    }
    return mcc(instruction, handle, index, size) ? 0 : -EIO;
  }
};

Mlx5Ops& ops_of(void* ctx) { return *static_cast<Mlx5Ops*>(ctx); }

of_fsm_ops bridge(Mlx5Ops& ops) {
  of_fsm_ops b{};
  b.ctx = &ops;
  b.component_query = [](void* ctx, std::uint16_t identifier, std::uint32_t* max_size, std::uint8_t* align_bits,
                         std::uint16_t* max_write_size) -> int {
    Mlx5Ops& o = ops_of(ctx);
    o.calls.push_back("query " + std::to_string(identifier));
    auto index = o.index_of(identifier);
    if (!index) return -EINVAL;
    std::vector<std::uint8_t> d(0x18 + 0x14, 0);  // info_type 0: capabilities
    be::put32(d.data(), 0x00, *index);
    be::put32(d.data(), 0x14, 0x14);
    auto a = o.access(flash_reg::kMcqi, AccessRegisterTlv::kMethodQuery, d);
    if (!a) return -EIO;
    *max_size = be::get32(a->data.data(), 0x18 + 0x08);
    const std::uint32_t w = be::get32(a->data.data(), 0x18 + 0x0c);
    *align_bits = static_cast<std::uint8_t>(w >> 28);
    *max_write_size = static_cast<std::uint16_t>(w);
    o.queried_write_size = *max_write_size;
    return 0;
  };
  b.fsm_lock = [](void* ctx, std::uint32_t* fwhandle) -> int {
    Mlx5Ops& o = ops_of(ctx);
    o.calls.push_back("lock");
    auto now = o.mcc(0, 0);  // mlx5: the handle is free (IDLE) or the lock is refused
    if (!now) return -EIO;
    if ((be::get32(now->data.data(), 0x0c) & 0xf) != 0) return -EBUSY;
    *fwhandle = be::get32(now->data.data(), 0x08) & 0xffffff;
    return o.instruct(1, *fwhandle);
  };
  b.fsm_component_update = [](void* ctx, std::uint32_t fwhandle, std::uint16_t identifier, std::uint32_t size) -> int {
    ops_of(ctx).calls.push_back("update " + std::to_string(identifier));
    return ops_of(ctx).instruct(3, fwhandle, identifier, size);
  };
  b.fsm_block_download = [](void* ctx, std::uint32_t fwhandle, const std::uint8_t* data, std::uint16_t size,
                            std::uint32_t offset) -> int {
    Mlx5Ops& o = ops_of(ctx);
    ++o.blocks;
    o.bytes += size;
    o.largest_block = std::max(o.largest_block, size);
    o.in_order = o.in_order && offset == o.next_offset;
    o.next_offset = offset + size;
    std::vector<std::uint8_t> d(flash_reg::kMcdaHeaderBytes + (size + 3u) / 4 * 4, 0);
    be::put32(d.data(), 0x00, fwhandle);
    be::put32(d.data(), 0x04, offset);
    be::put32(d.data(), 0x08, size);
    flash_reg::flash_bytes_to_wire(std::span(data, size), std::span(d).subspan(flash_reg::kMcdaHeaderBytes));
    return o.access(flash_reg::kMcda, AccessRegisterTlv::kMethodWrite, d) ? 0 : -EIO;
  };
  b.fsm_component_verify = [](void* ctx, std::uint32_t fwhandle, std::uint16_t identifier) -> int {
    ops_of(ctx).calls.push_back("verify " + std::to_string(identifier));
    return ops_of(ctx).instruct(4, fwhandle, identifier);
  };
  b.fsm_activate = [](void* ctx, std::uint32_t fwhandle) -> int {
    ops_of(ctx).calls.push_back("activate");
    return ops_of(ctx).instruct(6, fwhandle);
  };
  b.fsm_query_state = [](void* ctx, std::uint32_t, int* state, int* state_err) -> int {
    auto a = ops_of(ctx).mcc(0, 0);
    if (!a) return -EIO;
    const std::uint32_t w = be::get32(a->data.data(), 0x0c);
    *state = static_cast<int>(w & 0xf);
    // mlx5 hands MCC's error_code to the kernel as is, capped at MLXFW_FSM_STATE_ERR_MAX.
    *state_err = std::min(static_cast<int>((w >> 8) & 0xff), kKernelStateErrMax);
    return 0;
  };
  b.fsm_cancel = [](void* ctx, std::uint32_t fwhandle) {
    ops_of(ctx).calls.push_back("cancel");
    (void)ops_of(ctx).instruct(8, fwhandle);
  };
  b.fsm_release = [](void* ctx, std::uint32_t fwhandle) {
    ops_of(ctx).calls.push_back("release");
    (void)ops_of(ctx).instruct(2, fwhandle);
  };
  b.status = [](void* ctx, const char* msg, const char*, unsigned long, unsigned long) {
    auto& notices = ops_of(ctx).notices;
    if (notices.empty() || notices.back() != msg) notices.emplace_back(msg);
  };
  return b;
}

// A synthetic image of `info`'s format that its simulated firmware runs and takes through MCC.
std::optional<std::vector<std::uint8_t>> mcc_image(const DeviceInfo& info, std::uint16_t minor, const std::string& psid,
                                                   std::uint32_t hw_id, SyntheticLayout* layout = nullptr) {
  SyntheticSpec spec;
  spec.fw_major = 12;
  spec.fw_minor = minor;
  spec.fw_subminor = 1100;
  spec.psid = psid;
  spec.hw_id = hw_id;
  SyntheticLayout built;
  if (info.image_format == ImageFormat::Fs3) {
    built = build_fs3_mcc(spec);
  } else if (info.image_format == ImageFormat::Fs4) {
    spec.image_info_layout |= 0x100;  // IMAGE_INFO mcc_en
    built = build_fs4(spec);
  } else {
    return std::nullopt;
  }
  if (layout != nullptr) *layout = built;
  return built.bytes;
}

class MlxfwFsmReplay : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kKernelTarball))
      GTEST_SKIP() << kKernelTarball << " is absent: install Debian's linux-source-6.1 to run the kernel's mlxfw_fsm.c";
    if (!have_program("cc") || !have_program("tar")) GTEST_SKIP() << "needs cc and tar";
    const auto path = build_fsm_library(dir_.path());
    ASSERT_FALSE(path.empty());
    auto library = SharedLibrary::open(path.string());
    ASSERT_TRUE(library) << library.error().message();
    library_.emplace(std::move(*library));
    auto flash = library_->function<of_mlxfw_flash_fn>("of_mlxfw_flash");
    ASSERT_TRUE(flash) << flash.error().message();
    flash_ = *flash;
  }
  // An MFA2 package of `image`, made by flint archive create.
  std::vector<std::uint8_t> package_of(const std::vector<std::uint8_t>& image, const std::string& name) {
    const auto bin = dir_ / (name + ".bin");
    const auto package = dir_ / (name + ".mfa2");
    write_file(bin, image);
    auto made = run_tool("flint", {"archive", "create", "--format", "mfa2", "--bins", bin.string(), "-o", package.string()});
    EXPECT_EQ(made.exit_code, 0) << made.err;
    return read_file(package);
  }
  of_fsm_result flash(Mlx5Ops& ops, const std::string& psid, const std::vector<std::uint8_t>& package) {
    const of_fsm_ops b = bridge(ops);
    of_fsm_result result{};
    flash_(&b, psid.c_str(), package.data(), package.size(), &result);
    return result;
  }

  TempDir dir_;
  std::optional<SharedLibrary> library_;
  of_mlxfw_flash_fn flash_ = nullptr;
};

// MCC-enabled images of a model: for the FS4 models with generated samples, the old sample rebuilt
// with component update (flash-sized: its device data sits where the simulated boot ROM looks) and
// the new one's firmware component (fwops firmware_component: the copy from its header to its last
// section, what a running firmware takes; the whole flash-sized file would not fit the slot MCQI
// offers); else synthetic images of the model's format and hw id, FW 12.10.1100 and 12.20.1100.
struct ReplayImages {
  std::vector<std::uint8_t> old_image;  // what the device runs first
  std::vector<std::uint8_t> new_image;  // the new release as an image file (queried for its version)
  std::vector<std::uint8_t> component;  // what the MFA2 package carries of it
};
ReplayImages replay_images(const DeviceInfo& info, const std::filesystem::path& dir) {
  const std::string model(info.sim_model);
  // Spectrum-2's samples are real whole-flash images: this folder holds generated descriptions.
  const std::filesystem::path own = std::filesystem::path(OPENFLINT_SOURCE_DIR) / "tests/packages_interop" / model;
  const std::filesystem::path src = std::filesystem::exists(own / "old.fwdesc") ? own : std::filesystem::path{};
  if (info.image_format == ImageFormat::Fs4 && (has_sample_description(model) || !src.empty())) {
    ReplayImages out{.old_image = read_file(mcc_sample(dir, model, "old", src)),
                     .new_image = read_file(mcc_sample(dir, model, "new", src)),
                     .component = {}};
    auto component = firmware_component(ImageFormat::Fs4, out.new_image, out.new_image.size());
    EXPECT_TRUE(component) << component.error().message();
    if (!component) return {};
    out.component = std::move(*component);
    return out;
  }
  const std::string psid = "MT_FSM" + std::to_string(info.hw_id);
  auto old_image = mcc_image(info, 10, psid, info.hw_id);
  auto new_image = mcc_image(info, 20, psid, info.hw_id);
  if (!old_image || !new_image) return {};
  ReplayImages out{.old_image = std::move(*old_image), .new_image = std::move(*new_image), .component = {}};
  out.component = out.new_image;
  return out;
}

TEST_F(MlxfwFsmReplay, BurnsEveryComponentUpdateModelFromAnMfa2WeMade) {
  std::vector<std::string> replayed;
  std::vector<std::string> not_replayed;
  for (const DeviceInfo& info : all_devices()) {
    if (!info.firmware_flash.component_update || info.sim_model.empty()) continue;
    const std::string model(info.sim_model);
    SCOPED_TRACE(model);
    const auto [old_image, new_image, component] = replay_images(info, dir_.path());
    ASSERT_FALSE(old_image.empty() || component.empty()) << "no MCC image for " << model << "'s format";
    auto dev = device_running(model, old_image);
    if (!dev->component_update_offered()) {
      // A synthetic FS4 image keeps its DTOC at its own end, not at the end of the flash, so the
      // simulated boot ROM does not boot it: an FS4 model needs generated descriptions.
      not_replayed.push_back(model + " (" + std::string(to_string(info.image_format)) +
                             ": no image here that its simulated firmware boots with MCC)");
      continue;
    }
    const auto running_before = dev->boot_state().running->fw_version;
    const auto wanted = query_image(new_image);
    ASSERT_TRUE(wanted && wanted->fw_version);
    sim::SimRegisterPort port(*dev);
    Mlx5Ops ops(port);
    // The synthetic images go through flint archive create; a sample's firmware component (no
    // device data, so not an image flint opens) through the same writer's library call.
    std::vector<std::uint8_t> package;
    if (component == new_image) {
      package = package_of(component, model);
    } else {
      auto built = build_mfa2({Mfa2Input{.psid = wanted->psid, .image = component}});
      ASSERT_TRUE(built) << built.error().message();
      package = std::move(*built);
    }
    const of_fsm_result result = flash(ops, wanted->psid, package);
    EXPECT_EQ(result.err, 0) << result.extack;
    EXPECT_STREQ(result.extack, "");
    // The kernel's order: lock, then per component query, update, blocks, verify; activate, release.
    const std::vector<std::string> expected = {"lock", "query 1", "update 1", "verify 1", "activate", "release"};
    EXPECT_EQ(ops.calls, expected);
    EXPECT_EQ(ops.bytes, component.size());
    EXPECT_TRUE(ops.in_order);
    EXPECT_GT(ops.queried_write_size, 0);
    EXPECT_LE(ops.largest_block, ops.queried_write_size) << "blocks of the queried size at most";
    if (ops.queried_write_size > 0) {
      EXPECT_EQ(ops.blocks, (component.size() + ops.queried_write_size - 1) / ops.queried_write_size);
    }
    ASSERT_FALSE(ops.notices.empty());
    EXPECT_EQ(ops.notices.back(), "Firmware flash done");
    // The new copy is verified and active: it runs after the next power cycle.
    ASSERT_TRUE(dev->component_update().pending().has_value());
    dev->power_cycle();
    ASSERT_TRUE(dev->boot_state().running.has_value());
    EXPECT_EQ(dev->boot_state().running->fw_version, wanted->fw_version);
    EXPECT_NE(dev->boot_state().running->fw_version, running_before);
    replayed.push_back(model);
    std::cout << "[ replay   ] " << model << " (" << to_string(info.image_format) << ", hw id 0x" << std::hex
              << info.hw_id << std::dec << "): " << component.size() << " bytes in " << ops.blocks
              << " MCDA blocks of <= " << ops.queried_write_size << ", kernel polled " << result.slept_ms
              << " ms, runs " << wanted->fw_version->to_string() << " after the power cycle\n";
  }
  for (const auto& m : not_replayed) std::cout << "[ replay   ] not replayed: " << m << "\n";
  EXPECT_EQ(not_replayed, std::vector<std::string>{}) << "every component-update model of the catalog";
  EXPECT_GE(replayed.size(), 3u);
}

// The simulator's MCC error codes are the PRM's, and so the kernel's mlxfw_fsm_state_err values
// (mlx5 passes them on): a component that does not verify (a CRC broken in MAIN_CODE) is the
// firmware's BAD_FORMAT (0x8), the kernel's -ENOEXEC "bad format"; an image of another device
// under this PSID is NOT_APPLICABLE (0x3), -ENOENT. Either way the kernel cancels and releases
// the handle and the device keeps its old firmware.
TEST_F(MlxfwFsmReplay, FirmwareErrorsBecomeTheKernelsErrnoAndMessage) {
  const DeviceInfo* info = nullptr;
  for (const DeviceInfo& candidate : all_devices())
    if (candidate.sim_model == "connectx4") info = &candidate;
  ASSERT_NE(info, nullptr);
  const std::string psid = "MT_FSMERR";
  struct Case {
    const char* name;
    int err;
    const char* message;
  };
  for (const Case& c : {Case{"bad-format", -ENOEXEC, "mlxfw: Firmware flash failed: bad format"},
                        Case{"not-applicable", -ENOENT, "mlxfw: Firmware flash failed: component not applicable"}}) {
    SCOPED_TRACE(c.name);
    auto dev = device_running("connectx4", *mcc_image(*info, 10, psid, info->hw_id));
    sim::SimRegisterPort port(*dev);
    Mlx5Ops ops(port);
    SyntheticLayout layout;
    const bool bad_format = std::string(c.name) == "bad-format";
    auto image = *mcc_image(*info, 20, psid, bad_format ? info->hw_id : 0x20d, &layout);
    if (bad_format)
      for (std::uint64_t at = layout.main_code; at < layout.main_code + 64; ++at) image[at] ^= 0xff;
    const of_fsm_result result = flash(ops, psid, package_of(image, c.name));
    EXPECT_EQ(result.err, c.err);
    EXPECT_STREQ(result.extack, c.message);
    const std::vector<std::string> expected = {"lock", "query 1", "update 1", "verify 1", "cancel", "release"};
    EXPECT_EQ(ops.calls, expected);
    EXPECT_FALSE(dev->component_update().pending().has_value());
    EXPECT_EQ(dev->component_update().status().state, sim::UpdateState::Idle) << "the handle is released";
    dev->power_cycle();
    ASSERT_TRUE(dev->boot_state().running && dev->boot_state().running->fw_version);
    EXPECT_EQ(dev->boot_state().running->fw_version->minor, 10) << "the old firmware still boots";
  }
}

}  // namespace
}  // namespace openflint::test
