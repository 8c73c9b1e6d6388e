// The simulated firmware's reset register (MFRL) and what a PCI link reset does: a part with the
// register reloads its firmware only when a reset was armed; parts without one always reload.
#include <gtest/gtest.h>

#include "mtcr/registers/MfrlRegister.h"
#include "sim/FirmwareRegisters.h"
#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint::sim {
namespace {

// A device running `old_name`'s firmware whose flash holds `new_name`'s (burned, not yet reset).
std::unique_ptr<SimDevice> burned_device(const std::string& model, const std::string& old_name, const std::string& new_name) {
  auto dev = std::move(SimDevice::create(model)).value();
  auto flash_with = [&](const std::string& name) {
    auto bytes = test::read_file(test::sample_image(name));
    bytes.resize(dev->flash().chip().size, 0xff);
    EXPECT_TRUE(dev->flash().set_contents(bytes));
  };
  flash_with(old_name);
  dev->power_cycle();
  flash_with(new_name);
  return dev;
}

Result<MfrlRegister> mfrl(SimDevice& dev, std::uint8_t method, std::uint8_t& status, MfrlRegister value = {}) {
  AccessRegisterTlv request;
  request.register_id = MfrlRegister::kId;
  request.method = method;
  request.data = value.encode();
  OF_TRY(answer_register(dev, request));
  status = request.status;
  return MfrlRegister::decode(request.data);
}

TEST(FirmwareReset, ArmedLevelReloadsOnTheNextLinkResetOnly) {
  auto dev = burned_device("connectx4", "connectx4-old", "connectx4-new");
  const auto old_version = dev->boot_state().running->fw_version;
  std::uint8_t status = 0xff;
  auto q = mfrl(*dev, AccessRegisterTlv::kMethodQuery, status);
  ASSERT_TRUE(q) << q.error().message();
  EXPECT_EQ(status, 0);
  EXPECT_EQ(q->reset_trigger, 0x48) << "levels 3 and 4";
  EXPECT_EQ(q->reset_type, 0x01);
  EXPECT_EQ(q->reset_state, MfrlRegister::kStateIdle);

  EXPECT_FALSE(dev->link_reset()) << "not armed: the link retrains, the firmware runs on";
  EXPECT_EQ(dev->boot_state().running->fw_version, old_version);

  MfrlRegister ask;
  ask.reset_trigger = MfrlRegister::kLevel0LivePatch;  // not offered
  ASSERT_TRUE(mfrl(*dev, AccessRegisterTlv::kMethodWrite, status, ask));
  EXPECT_EQ(status, kBadParameter);
  ask.reset_trigger = MfrlRegister::kLevel3PciReset;
  ask.rst_type_sel = 2;  // NIC-only: not offered
  ASSERT_TRUE(mfrl(*dev, AccessRegisterTlv::kMethodWrite, status, ask));
  EXPECT_EQ(status, kBadParameter);
  EXPECT_EQ(dev->armed_reset(), 0);
  ask.rst_type_sel = 0;
  ASSERT_TRUE(mfrl(*dev, AccessRegisterTlv::kMethodWrite, status, ask));
  EXPECT_EQ(status, 0);
  q = mfrl(*dev, AccessRegisterTlv::kMethodQuery, status);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->reset_state, MfrlRegister::kStateWaitingForTrigger);

  EXPECT_TRUE(dev->link_reset());
  EXPECT_NE(dev->boot_state().running->fw_version, old_version) << "the new firmware runs";
  EXPECT_EQ(dev->armed_reset(), 0) << "the reset disarms";
  q = mfrl(*dev, AccessRegisterTlv::kMethodQuery, status);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->reset_state, MfrlRegister::kStateIdle);
}

TEST(FirmwareReset, WithoutTheRegisterEveryLinkResetReloads) {
  auto dev = burned_device("connectx4", "connectx4-old", "connectx4-new");
  SimFaults faults;
  faults.no_reset_register = true;
  dev->set_faults(faults);
  std::uint8_t status = 0;
  ASSERT_TRUE(mfrl(*dev, AccessRegisterTlv::kMethodQuery, status));
  EXPECT_EQ(status, kRegisterNotSupported);
  const auto old_version = dev->boot_state().running->fw_version;
  EXPECT_TRUE(dev->link_reset());
  EXPECT_NE(dev->boot_state().running->fw_version, old_version);

  auto cx3 = burned_device("connectx3", "connectx3-old", "connectx3-new");
  ASSERT_TRUE(mfrl(*cx3, AccessRegisterTlv::kMethodQuery, status));
  EXPECT_EQ(status, kRegisterNotSupported) << "ConnectX-3 firmware has no MFRL";
  const auto cx3_old = cx3->boot_state().running->fw_version;
  EXPECT_TRUE(cx3->link_reset());
  EXPECT_NE(cx3->boot_state().running->fw_version, cx3_old);
}

}  // namespace
}  // namespace openflint::sim
