// IcmdAccess over a FuseSysfs tree: MGIR through the simulated ICMD mailbox, unknown opcodes and
// registers, a held ICMD semaphore, and a ConnectX-3 (no VSEC) without ICMD.
#include <gtest/gtest.h>

#include "mtcr/pci/IcmdAccess.h"
#include "mtcr/registers/MgirRegister.h"
#include "tests/pci/PciSysfsFixture.h"

namespace openflint {
namespace {

using test::PciSysfsFixture;

AccessRegisterTlv request(std::uint16_t id, std::size_t bytes) {
  AccessRegisterTlv r;
  r.register_id = id;
  r.method = AccessRegisterTlv::kMethodQuery;
  r.data.assign(bytes, 0);
  return r;
}

class Icmd : public PciSysfsFixture {};

TEST_F(Icmd, MgirThroughTheMailbox) {
  auto config = PciConfigAccess::open(kCx4, root());
  ASSERT_TRUE(config) << config.error().message();
  auto icmd = IcmdAccess::open(**config);
  ASSERT_TRUE(icmd) << icmd.error().message();
  EXPECT_GE(icmd->mailbox_size(), AccessRegisterTlv::kHeaderBytes + MgirRegister::kSize);
  auto answer = icmd->access_register(request(MgirRegister::kId, MgirRegister::kSize));
  ASSERT_TRUE(answer) << answer.error().message();
  EXPECT_EQ(answer->status, 0);
  EXPECT_EQ(answer->register_id, MgirRegister::kId);
  auto mgir = MgirRegister::decode(answer->data);
  ASSERT_TRUE(mgir) << mgir.error().message();
  EXPECT_EQ(mgir->device_id, cx4_->info().hw_id);
  EXPECT_FALSE(mgir->has_firmware()) << "a blank simulated device runs no firmware";

  // A register the firmware does not have: the TLV says so (status 4), the command itself is fine.
  auto unknown = icmd->access_register(request(0x9062, 0x20));
  ASSERT_TRUE(unknown) << unknown.error().message();
  EXPECT_EQ(unknown->status, 4);
  // An opcode it does not know: ICMD status 1.
  const std::vector<std::uint8_t> none(8, 0);
  auto bad = icmd->command(0x1234, none, 8);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code(), ErrorCode::NotSupported) << bad.error().message();
  EXPECT_EQ(fs_->gateway_transactions(0) > 0, true);
}

TEST_F(Icmd, AHeldSemaphoreIsBusyAndNotTaken) {
  auto config = PciConfigAccess::open(kCx4, root());
  ASSERT_TRUE(config) << config.error().message();
  const std::uint32_t other = 0x1234;  // another agent's ticket
  ASSERT_TRUE((*config)->write_space(VsecSpace::Semaphore, kIcmdSemaphore, std::span(&other, 1)));
  auto icmd = IcmdAccess::open(**config);
  ASSERT_TRUE(icmd) << icmd.error().message();
  auto answer = icmd->access_register(request(MgirRegister::kId, MgirRegister::kSize));
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.error().code(), ErrorCode::Busy) << answer.error().message();
  std::uint32_t holder = 0;
  ASSERT_TRUE((*config)->read_space(VsecSpace::Semaphore, kIcmdSemaphore, std::span(&holder, 1)));
  EXPECT_EQ(holder, other) << "the other agent still holds it";
  const std::uint32_t zero = 0;
  ASSERT_TRUE((*config)->write_space(VsecSpace::Semaphore, kIcmdSemaphore, std::span(&zero, 1)));
  EXPECT_TRUE(icmd->access_register(request(MgirRegister::kId, MgirRegister::kSize)));
}

TEST_F(Icmd, AWindowDeviceHasNoIcmd) {
  auto config = PciConfigAccess::open(kCx3, root());
  ASSERT_TRUE(config) << config.error().message();
  auto icmd = IcmdAccess::open(**config);
  ASSERT_FALSE(icmd);
  EXPECT_EQ(icmd.error().code(), ErrorCode::NotSupported) << icmd.error().message();
}

}  // namespace
}  // namespace openflint
