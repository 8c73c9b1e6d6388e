// ToolsHcr: a simulated ConnectX-3's tools HCR driven purely through CR-space reads and writes, as mstflint's mtcr_tools_cif.c drives it.
#include <gtest/gtest.h>

#include <string_view>

#include "devices/ToolsHcrLayout.h"
#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/registers/MgirRegister.h"
#include "mtcr/registers/NvConfigRegisters.h"
#include "sim/FirmwareRegisters.h"
#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ResultMatchers.h"

namespace openflint::sim {
namespace {

constexpr ToolsHcrLayout kHcr = kConnectX3ToolsHcr;
constexpr std::uint32_t kCommand = kHcr.hcr + 24;  // dword 6
constexpr std::uint32_t kGo = 1u << 23;
constexpr std::uint32_t kMailboxProbe = 0x0badb00f;  // mstflint's CR-mailbox probe

struct Answer {
  std::uint32_t status = 0xff;
  std::uint32_t out_h = 0;
  std::uint32_t out_l = 0;
};

// The tool side, as tools_cmdif_send_cmd_int does it: wait for go clear, write dwords 0..6
// with go clear, then dword 6 with go, poll go, read the HCR back.
class Tool {
 public:
  explicit Tool(SimDevice& dev) : dev_(&dev) {}

  std::uint32_t read(std::uint32_t address) const {
    auto v = dev_->read32(address);
    EXPECT_TRUE(v.has_value()) << v.error().message();
    return v ? *v : 0xffffffff;
  }
  void write(std::uint32_t address, std::uint32_t value) const {
    auto w = dev_->write32(address, value);
    EXPECT_TRUE(w.has_value()) << w.error().message();
  }
  bool take_semaphore() const { return read(kHcr.semaphore) == 0; }
  void release_semaphore() const { write(kHcr.semaphore, 0); }

  Answer command(std::uint16_t opcode, std::uint8_t opcode_modifier = 0, std::uint32_t input_modifier = 0,
                 std::uint32_t in_h = 0, std::uint32_t in_l = 0) const {
    EXPECT_EQ(read(kCommand) & kGo, 0u) << "go set before the command";
    const std::uint32_t word = opcode | std::uint32_t{opcode_modifier} << 12;
    const std::uint32_t dwords[7] = {in_h, in_l, input_modifier, 0, 0, 0, word};
    for (std::uint32_t i = 0; i < 7; ++i) write(kHcr.hcr + 4 * i, dwords[i]);
    write(kCommand, word | kGo);
    const std::uint32_t done = read(kCommand);
    EXPECT_EQ(done & kGo, 0u) << "go did not clear";
    EXPECT_EQ(done & 0xffff, word) << "the opcode fields changed";
    return Answer{done >> 24, read(kHcr.hcr + 12), read(kHcr.hcr + 16)};
  }
  // mstflint tools_cmdif_mbox_write: mailbox bytes [0..3] (`first`) in in_param_l.
  std::uint32_t mailbox_write(std::uint32_t dword_offset, std::uint32_t first, std::uint32_t second) const {
    return command(kToolsHcrMailboxWrite, 0, dword_offset, second, first).status;
  }
  // tcif_query_dev_cap: MAILBOX_READ, then the two big-endian dwords as a little-endian u64.
  std::uint64_t dev_cap(std::uint32_t byte_offset) const {
    const Answer a = command(kToolsHcrMailboxRead, 0, byte_offset / 4);
    EXPECT_EQ(a.status, 0u);
    return std::uint64_t{a.out_l} | std::uint64_t{a.out_h} << 32;
  }

 private:
  SimDevice* dev_;
};

std::unique_ptr<SimDevice> make(std::string_view model) {
  auto dev = SimDevice::create(model);
  EXPECT_TRUE(dev.has_value()) << dev.error().message();
  return dev ? std::move(*dev) : nullptr;
}

// A ConnectX-3 running the old sample firmware (2.40.5030), as `hcasim create --image` makes it.
std::unique_ptr<SimDevice> running_cx3() {
  auto dev = make("connectx3");
  if (!dev) return nullptr;
  auto image = test::read_file(test::sample_image("connectx3-old"));
  EXPECT_FALSE(image.empty());
  image.resize(dev->flash().chip().size, 0xff);
  EXPECT_TRUE(dev->flash().set_contents(image).has_value());
  dev->power_cycle();
  EXPECT_TRUE(running_mgir(*dev).has_firmware());
  return dev;
}

const NvParameter& catalog_parameter(const SimDevice& dev, std::string_view item, std::string_view name) {
  for (const NvItem& i : dev.info().nv_config->items)
    if (i.name == item)
      for (const NvParameter& p : i.parameters)
        if (p.name == name) return p;
  ADD_FAILURE() << item << "." << name << " is not in the catalog";
  static const NvParameter none{};
  return none;
}

// An adb field (mstflint tools_open_layouts.c: bit offset from the MSB of the first dword).
std::uint32_t adb_field(const Tool& tool, std::uint32_t bit_offset, std::uint32_t width) {
  const std::uint32_t dword = tool.read(kHcr.mailbox + 4 * (bit_offset / 32));
  const std::uint32_t lsb = 31 - bit_offset % 32 - (width - 1);
  return dword >> lsb & (width == 32 ? 0xffffffffu : (1u << width) - 1);
}

TEST(ToolsHcr, SemaphoreIsTakenByTheReadThatReturnsZeroAndFreedByWritingZero) {
  auto dev = running_cx3();
  ASSERT_TRUE(dev);
  Tool tool(*dev);
  EXPECT_EQ(tool.read(kHcr.semaphore), 0u);  // taken by this read
  EXPECT_NE(tool.read(kHcr.semaphore), 0u);  // busy for the next reader
  EXPECT_NE(tool.read(kHcr.semaphore), 0u);
  EXPECT_TRUE(dev->tools_hcr()->semaphore_held());
  tool.release_semaphore();
  EXPECT_FALSE(dev->tools_hcr()->semaphore_held());
  EXPECT_EQ(tool.read(kHcr.semaphore), 0u);  // free again: this read takes it
  EXPECT_NE(tool.read(kHcr.semaphore), 0u);
}

TEST(ToolsHcr, MailboxCommandsAndCrSpaceMailboxAreOneBuffer) {
  auto dev = running_cx3();
  ASSERT_TRUE(dev);
  Tool tool(*dev);
  ASSERT_TRUE(tool.take_semaphore());
  tool.write(kHcr.mailbox, kMailboxProbe);  // tools_cmdif_is_cr_mbox_supported
  EXPECT_EQ(tool.read(kHcr.mailbox), kMailboxProbe);
  EXPECT_EQ(tool.mailbox_write(0, 0, 0), 0u);  // tools_cmdif_is_supported
  EXPECT_EQ(tool.read(kHcr.mailbox), 0u);

  EXPECT_EQ(tool.mailbox_write(4, 0x11223344, 0x55667788), 0u);  // bytes 0x10..0x17
  EXPECT_EQ(tool.read(kHcr.mailbox + 0x10), 0x11223344u);
  EXPECT_EQ(tool.read(kHcr.mailbox + 0x14), 0x55667788u);
  tool.write(kHcr.mailbox + 0x118, 0xdeadbeef);  // the last quad word
  tool.write(kHcr.mailbox + 0x11c, 0xcafef00d);
  const Answer last = tool.command(kToolsHcrMailboxRead, 0, 0x118 / 4);
  EXPECT_EQ(last.status, 0u);
  EXPECT_EQ(last.out_l, 0xdeadbeefu);  // the first dword, as mstflint stores out_param_l first
  EXPECT_EQ(last.out_h, 0xcafef00du);
  const Answer back = tool.command(kToolsHcrMailboxRead, 0, 4);
  EXPECT_EQ(back.out_l, 0x11223344u);
  EXPECT_EQ(back.out_h, 0x55667788u);

  EXPECT_EQ(tool.mailbox_write(3, 1, 2), kHcrStatusBadParameter);   // odd dword offset
  EXPECT_EQ(tool.mailbox_write(72, 1, 2), kHcrStatusBadParameter);  // past the 288 bytes
  EXPECT_EQ(tool.command(kToolsHcrMailboxRead, 0, 71).status, kHcrStatusBadParameter);
  EXPECT_EQ(tool.read(kHcr.mailbox + 0x11c), 0xcafef00du);  // the refused writes stored nothing
  tool.release_semaphore();
}

TEST(ToolsHcr, QueryDevCapServesTheCatalogsCapabilitiesWhereMstconfigReadsThem) {
  auto dev = running_cx3();
  ASSERT_TRUE(dev);
  Tool tool(*dev);
  ASSERT_TRUE(tool.take_semaphore());
  ASSERT_EQ(tool.command(kToolsHcrQueryDevCap).status, 0u);
  // SR-IOV 0x1, VPI on both ports 0x8|0x10, BAR size 0x20; no Wake-on-LAN (0x2, 0x4).
  EXPECT_EQ(tool.dev_cap(0xc0) & 0x3f, 0x39u);
  const NvParameter& vfs = catalog_parameter(*dev, "sriov", "NUM_OF_VFS");
  ASSERT_NE(vfs.max_value, 0u);
  EXPECT_EQ((tool.dev_cap(0x38) & 0xff) - 1, vfs.max_value);  // mstconfig: max VFs = index - 1
  const NvParameter& bar = catalog_parameter(*dev, "bar_size", "LOG_BAR_SIZE");
  EXPECT_EQ(tool.dev_cap(0xc8) >> 3 & 0x3f, bar.max_value);          // EXTRACT64(data, 3, 6)
  EXPECT_EQ((tool.dev_cap(0x48) >> 16 & 0x3f) + 1, bar.factory_default);  // EXTRACT64(data, 16, 6) + 1
  EXPECT_EQ(tool.dev_cap(0x40), 0u);  // nothing else
  tool.release_semaphore();
}

TEST(ToolsHcr, QueryDefParamsGlobalHoldsTheCatalogDefaults) {
  auto dev = running_cx3();
  ASSERT_TRUE(dev);
  Tool tool(*dev);
  for (std::uint32_t i = 0; i < kHcr.mailbox_bytes; i += 4) tool.write(kHcr.mailbox + i, 0xffffffff);
  ASSERT_EQ(tool.command(kToolsHcrQueryDefParams, 0).status, 0u);
  // Offsets as tools_open_query_def_params_global_pack has them.
  EXPECT_EQ(adb_field(tool, 0, 8), 1u);  // fw_default_config_payload_version
  EXPECT_EQ(adb_field(tool, 32, 1), catalog_parameter(*dev, "sriov", "SRIOV_EN").factory_default);
  EXPECT_EQ(adb_field(tool, 56, 8), catalog_parameter(*dev, "sriov", "NUM_OF_VFS").factory_default);
  EXPECT_EQ(adb_field(tool, 56, 8), 8u);
  const NvParameter& bar = catalog_parameter(*dev, "bar_size", "LOG_BAR_SIZE");
  EXPECT_EQ(adb_field(tool, 52, 4), bar.factory_default);  // uar_bar_size
  EXPECT_EQ(adb_field(tool, 48, 4), bar.max_value);        // max_uar_bar_size
  EXPECT_EQ(adb_field(tool, 42, 1), 0u);                   // boot_ip_ver: not offered
  for (std::uint32_t bit : {14u, 15u, 16u, 17u}) EXPECT_EQ(adb_field(tool, bit, 1), 0u) << bit;  // nv_config_*
  EXPECT_EQ(tool.read(kHcr.mailbox + 0x20), 0u);  // the rest of the mailbox is cleared
}

TEST(ToolsHcr, QueryDefParamsPerPortHoldsTheCatalogDefaultsAndRefusesPortsTheDeviceLacks) {
  auto dev = running_cx3();
  ASSERT_TRUE(dev);
  Tool tool(*dev);
  const auto boot = [&](std::string_view name) { return catalog_parameter(*dev, "preboot_boot_settings", name).factory_default; };
  for (std::uint8_t port = 1; port <= 2; ++port) {
    ASSERT_EQ(tool.command(kToolsHcrQueryDefParams, port).status, 0u) << int{port};
    // tools_open_query_def_params_per_port_pack offsets.
    EXPECT_EQ(adb_field(tool, 0, 8), 1u);
    EXPECT_EQ(adb_field(tool, 13, 1), 1u);  // nv_config_vpi
    EXPECT_EQ(adb_field(tool, 12, 1), 0u);  // nv_config_wol
    EXPECT_EQ(adb_field(tool, 14, 1), 0u);  // nv_config_vpi_force_mode
    EXPECT_EQ(adb_field(tool, 37, 2), catalog_parameter(*dev, "vpi_settings", "LINK_TYPE").factory_default);
    EXPECT_EQ(adb_field(tool, 37, 2), 1u);  // IB
    EXPECT_EQ(adb_field(tool, 52, 12), boot("BOOT_VLAN"));
    EXPECT_EQ(adb_field(tool, 44, 4), boot("LEGACY_BOOT_PROTOCOL"));
    EXPECT_EQ(adb_field(tool, 40, 4), boot("BOOT_RETRY_CNT"));
    EXPECT_EQ(adb_field(tool, 35, 1), boot("BOOT_VLAN_EN"));
    EXPECT_EQ(adb_field(tool, 34, 1), boot("BOOT_OPTION_ROM_EN"));
    EXPECT_EQ(adb_field(tool, 34, 1), 1u);
    EXPECT_EQ(adb_field(tool, 36, 1), 0u);   // default_en_wol_magic
    EXPECT_EQ(adb_field(tool, 67, 1), 0u);   // nv_config_infiniband_boot_settings: no BOOT_PKEY
    EXPECT_EQ(adb_field(tool, 80, 16), 0u);  // default_boot_pkey
  }
  EXPECT_EQ(tool.command(kToolsHcrQueryDefParams, 3).status, kHcrStatusBadParameter);
}

TEST(ToolsHcr, RegisterAccessAnswersMgirLikeTheIcmdPathThroughEitherMailboxRoute) {
  auto dev = running_cx3();
  ASSERT_TRUE(dev);
  Tool tool(*dev);
  AccessRegisterTlv request;
  request.register_id = MgirRegister::kId;
  request.tid = 0x1234;
  request.data.assign(MgirRegister::kSize, 0);
  auto encoded = request.encode(kHcr.mailbox_bytes);
  ASSERT_TRUE(encoded.has_value());
  encoded->resize(kHcr.mailbox_bytes, 0);
  const MgirRegister expected = running_mgir(*dev);
  ASSERT_EQ(expected.device_id, 0x1f5);

  const auto check_answer = [&](const std::vector<std::uint8_t>& mailbox) {
    auto answer = AccessRegisterTlv::decode(mailbox);
    ASSERT_THAT(answer, test::IsOk());
    EXPECT_EQ(answer->status, 0u);
    EXPECT_EQ(answer->tid, 0x1234u);
    auto mgir = MgirRegister::decode(answer->data);
    ASSERT_THAT(mgir, test::IsOk());
    EXPECT_EQ(mgir->device_id, 0x1f5);
    EXPECT_EQ(mgir->major, expected.major);
    EXPECT_EQ(mgir->minor, expected.minor);
    EXPECT_EQ(mgir->subminor, expected.subminor);
    EXPECT_EQ(mgir->psid, expected.psid);
  };

  // The CR-space mailbox (input_modifier 1).
  ASSERT_TRUE(tool.take_semaphore());
  for (std::uint32_t i = 0; i < kHcr.mailbox_bytes; i += 4) tool.write(kHcr.mailbox + i, nv_reg::get_be32(*encoded, i));
  ASSERT_EQ(tool.command(kToolsHcrRegisterAccess, 0, 1).status, 0u);
  std::vector<std::uint8_t> mailbox(kHcr.mailbox_bytes);
  for (std::uint32_t i = 0; i < kHcr.mailbox_bytes; i += 4) nv_reg::put_be32(mailbox, i, tool.read(kHcr.mailbox + i));
  check_answer(mailbox);
  EXPECT_EQ(dev->tools_hcr()->commands(), 1u);
  // MAILBOX_WRITE / MAILBOX_READ in quad words (input_modifier 0).
  for (std::uint32_t i = 0; i < kHcr.mailbox_bytes; i += 8)
    ASSERT_EQ(tool.mailbox_write(i / 4, nv_reg::get_be32(*encoded, i), nv_reg::get_be32(*encoded, i + 4)), 0u);
  ASSERT_EQ(tool.command(kToolsHcrRegisterAccess, 0, 0).status, 0u);
  std::fill(mailbox.begin(), mailbox.end(), 0);
  for (std::uint32_t i = 0; i < kHcr.mailbox_bytes; i += 8) {
    const Answer a = tool.command(kToolsHcrMailboxRead, 0, i / 4);
    nv_reg::put_be32(mailbox, i, a.out_l);
    nv_reg::put_be32(mailbox, i + 4, a.out_h);
  }
  check_answer(mailbox);
  tool.release_semaphore();

  // Garbage instead of TLVs: a bad parameter, the mailbox left alone.
  tool.write(kHcr.mailbox, 0x12345678);
  EXPECT_EQ(tool.command(kToolsHcrRegisterAccess, 0, 1).status, kHcrStatusBadParameter);
  EXPECT_EQ(tool.read(kHcr.mailbox), 0x12345678u);
}

TEST(ToolsHcr, AnUnknownOpcodeIsABadOperation) {
  auto dev = running_cx3();
  ASSERT_TRUE(dev);
  Tool tool(*dev);
  constexpr std::uint16_t kHwAccess = 0x60;  // tools_cif.c HW_ACCESS_OP: not served
  EXPECT_EQ(tool.command(kHwAccess, 1, 0, 0x1234, 0x5678).status, kHcrStatusBadOpcode);
  EXPECT_EQ(tool.command(kToolsHcrMailboxWrite, 0, 0).status, 0u);  // the next command runs
}

TEST(ToolsHcr, WithoutRunningFirmwareEveryCommandIsABadSystemStateButTheHardwareWorks) {
  auto dev = make("connectx3");  // blank flash: flash recovery
  ASSERT_TRUE(dev);
  ASSERT_TRUE(dev->boot_state().recovery);
  Tool tool(*dev);
  ASSERT_TRUE(tool.take_semaphore());
  EXPECT_FALSE(tool.take_semaphore());
  tool.write(kHcr.mailbox, kMailboxProbe);
  EXPECT_EQ(tool.read(kHcr.mailbox), kMailboxProbe);
  // mstconfig reads status 4 on QUERY_DEV_CAP as "Cannot perform operation, Driver might be down."
  for (std::uint16_t op : {kToolsHcrQueryDevCap, kToolsHcrMailboxWrite, kToolsHcrMailboxRead, kToolsHcrRegisterAccess,
                           kToolsHcrQueryDefParams, std::uint16_t{0x60}})
    EXPECT_EQ(tool.command(op).status, kHcrStatusBadSystemState) << op;
  EXPECT_EQ(tool.read(kHcr.mailbox), kMailboxProbe);  // MAILBOX_WRITE did not run
  tool.release_semaphore();
}

TEST(ToolsHcr, AResetClearsTheMailboxAndFreesTheSemaphore) {
  auto dev = running_cx3();
  ASSERT_TRUE(dev);
  Tool tool(*dev);
  ASSERT_TRUE(tool.take_semaphore());
  ASSERT_EQ(tool.mailbox_write(0, 0xaaaaaaaa, 0xbbbbbbbb), 0u);
  (void)dev->reset();
  EXPECT_EQ(tool.read(kHcr.mailbox), 0u);
  EXPECT_EQ(tool.read(kHcr.hcr + 4), 0u);  // in_param_l of the last command
  EXPECT_TRUE(tool.take_semaphore());
  ASSERT_EQ(tool.mailbox_write(0, 0xaaaaaaaa, 0xbbbbbbbb), 0u);
  dev->power_cycle();
  EXPECT_EQ(tool.read(kHcr.mailbox + 4), 0u);
  EXPECT_TRUE(tool.take_semaphore());
}

TEST(ToolsHcr, ALoadedDeviceServesItFreshAndTheStateFileDoesNotCarryIt) {
  auto dev = running_cx3();
  ASSERT_TRUE(dev);
  Tool tool(*dev);
  ASSERT_TRUE(tool.take_semaphore());
  ASSERT_EQ(tool.mailbox_write(0, 0xaaaaaaaa, 0xbbbbbbbb), 0u);
  test::TempDir tmp;
  ASSERT_TRUE(dev->save_state(tmp / "cx3").has_value());
  auto loaded = SimDevice::load_state(tmp / "cx3");
  ASSERT_THAT(loaded, test::IsOk());
  Tool again(**loaded);
  EXPECT_TRUE(again.take_semaphore());
  EXPECT_EQ(again.read(kHcr.mailbox), 0u);
  EXPECT_EQ(again.command(kToolsHcrQueryDevCap).status, 0u);  // the saved boot state: firmware runs
  EXPECT_EQ(again.dev_cap(0xc0) & 0x3f, 0x39u);
}

TEST(ToolsHcr, AConnectX4HasNone) {
  auto dev = make("connectx4");
  ASSERT_TRUE(dev);
  EXPECT_EQ(dev->tools_hcr(), nullptr);
  Tool tool(*dev);
  EXPECT_EQ(tool.read(kHcr.semaphore), 0u);
  EXPECT_EQ(tool.read(kHcr.semaphore), 0u);  // plain storage, no semaphore
  tool.write(kCommand, kToolsHcrQueryDevCap | kGo);
  EXPECT_EQ(tool.read(kCommand), kToolsHcrQueryDevCap | kGo);  // nothing ran: go stays set
  tool.write(kHcr.mailbox, kMailboxProbe);
  EXPECT_EQ(tool.read(kHcr.hcr + 12), 0u);
}

}  // namespace
}  // namespace openflint::sim
