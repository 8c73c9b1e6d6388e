// ToolsHcrRegisterPort against an in-test model of the tools HCR: the semaphore is taken and
// released on every path, the command sequence, the mailbox traffic, and the error mapping.
#include <gtest/gtest.h>

#include "mtcr/registers/MgirRegister.h"
#include "mtcr/ToolsHcrRegisterPort.h"
#include "tests/mtcr_hcr/FakeToolsHcr.h"

namespace openflint::test {
namespace {

// No sleeping: the model answers at once or never.
constexpr ToolsHcrOptions kFast{.semaphore_tries = 8,
                                .semaphore_interval = std::chrono::microseconds(0),
                                .go_polls = 40,
                                .go_max_interval = std::chrono::microseconds(0)};

AccessRegisterTlv mgir_query() {
  AccessRegisterTlv request;
  request.register_id = MgirRegister::kId;
  request.method = AccessRegisterTlv::kMethodQuery;
  request.tid = 0x1122334455667788ull;
  request.data.assign(MgirRegister::kSize, 0);
  return request;
}

std::unique_ptr<ToolsHcrRegisterPort> open_port(FakeToolsHcr& hcr) {
  auto port = ToolsHcrRegisterPort::open(hcr, kConnectX3ToolsHcr, kFast);
  EXPECT_TRUE(port.has_value()) << port.error().message();
  return port ? std::move(*port) : nullptr;
}

TEST(ToolsHcrPort, OpenChecksTheMailboxUnderTheSemaphoreAndReleasesIt) {
  FakeToolsHcr hcr;
  auto port = open_port(hcr);
  ASSERT_NE(port, nullptr);
  EXPECT_EQ(hcr.mailbox_word(0), 0x0badb00fu);
  EXPECT_EQ(hcr.takes, 1u);
  EXPECT_EQ(hcr.releases, 1u);
  EXPECT_FALSE(hcr.held());
  EXPECT_EQ(hcr.unlocked_accesses, 0u);
  EXPECT_TRUE(hcr.issued.empty());  // the check runs no command
  EXPECT_EQ(port->max_register_bytes(), 288u - AccessRegisterTlv::kHeaderBytes);
}

TEST(ToolsHcrPort, FirmwareWithoutTheCrMailboxIsNotSupported) {
  FakeToolsHcr hcr;
  hcr.mailbox_mapped = false;
  auto port = ToolsHcrRegisterPort::open(hcr, kConnectX3ToolsHcr, kFast);
  ASSERT_FALSE(port.has_value());
  EXPECT_EQ(port.error().code(), ErrorCode::NotSupported);
  EXPECT_NE(port.error().message().find("firmware too old for the tools HCR (2.31.5000 or later needed)"),
            std::string::npos) << port.error().message();
  EXPECT_FALSE(hcr.held());
  EXPECT_EQ(hcr.releases, 1u);
}

TEST(ToolsHcrPort, PlainCrSpaceWithoutAHardwareSemaphoreIsNotSupported) {
  PlainCrSpace cr;  // the mailbox address would echo the probe: the semaphore gives it away
  auto port = ToolsHcrRegisterPort::open(cr, kConnectX3ToolsHcr, kFast);
  ASSERT_FALSE(port.has_value());
  EXPECT_EQ(port.error().code(), ErrorCode::NotSupported);
  EXPECT_NE(port.error().message().find("no tools HCR"), std::string::npos) << port.error().message();
}

TEST(ToolsHcrPort, MgirQueryRunsOneRegisterAccessThroughTheCrMailbox) {
  FakeToolsHcr hcr;
  auto port = open_port(hcr);
  ASSERT_NE(port, nullptr);
  auto answer = port->transact(mgir_query());
  ASSERT_TRUE(answer.has_value()) << answer.error().message();
  EXPECT_EQ(answer->status, 0);
  EXPECT_EQ(answer->register_id, MgirRegister::kId);
  EXPECT_EQ(answer->tid, 0x1122334455667788ull);
  ASSERT_EQ(answer->data.size(), MgirRegister::kSize);
  auto mgir = MgirRegister::decode(answer->data);
  ASSERT_TRUE(mgir.has_value()) << mgir.error().message();
  EXPECT_EQ(mgir->device_id, FakeToolsHcr::kHwId);
  EXPECT_EQ(mgir->minor, 42);
  EXPECT_EQ(mgir->psid, "MT_1090120019");

  ASSERT_EQ(hcr.issued.size(), 1u);
  EXPECT_EQ(hcr.issued[0] & 0xfff, kToolsHcrRegisterAccess);
  EXPECT_EQ((hcr.issued[0] >> 12) & 0xf, 0u);  // opcode modifier
  EXPECT_EQ(hcr.input_modifiers[0], 1u);        // the TLVs are in the CR mailbox
  ASSERT_EQ(hcr.requests.size(), 1u);
  EXPECT_EQ(hcr.requests[0].register_id, MgirRegister::kId);
  EXPECT_EQ(hcr.requests[0].method, AccessRegisterTlv::kMethodQuery);
  EXPECT_EQ(hcr.mailbox_dwords_written, 288u / 4);  // the whole mailbox, zero padded
  // Read back: the 20 header bytes and 160 register bytes, rounded up to a quad word.
  EXPECT_EQ(hcr.mailbox_read_end, 184u);
  EXPECT_EQ(hcr.takes, 2u);  // open, then the access
  EXPECT_EQ(hcr.releases, 2u);
  EXPECT_FALSE(hcr.held());
  EXPECT_EQ(hcr.unlocked_accesses, 0u);
  EXPECT_EQ(hcr.oversized_blocks, 0u);
  EXPECT_EQ(port->accesses(), 1u);
}

TEST(ToolsHcrPort, OneDwordTransportsMoveTheMailboxDwordByDword) {
  FakeToolsHcr hcr;
  hcr.block_dwords = 1;  // the PCI config window
  auto port = open_port(hcr);
  ASSERT_NE(port, nullptr);
  auto answer = port->transact(mgir_query());
  ASSERT_TRUE(answer.has_value()) << answer.error().message();
  EXPECT_EQ(MgirRegister::decode(answer->data)->device_id, FakeToolsHcr::kHwId);
  EXPECT_EQ(hcr.oversized_blocks, 0u);
}

TEST(ToolsHcrPort, TheRegisterStatusStaysInTheAnswer) {
  FakeToolsHcr hcr;
  auto port = open_port(hcr);
  ASSERT_NE(port, nullptr);
  hcr.register_status = AccessRegisterTlv::kStatusBadParameter;
  auto answer = port->transact(mgir_query());
  ASSERT_TRUE(answer.has_value()) << answer.error().message();
  EXPECT_EQ(answer->status, AccessRegisterTlv::kStatusBadParameter);
  EXPECT_FALSE(hcr.held());
}

TEST(ToolsHcrPort, AFirmwareErrorStatusNamesItAndReleasesTheSemaphore) {
  FakeToolsHcr hcr;
  auto port = open_port(hcr);
  ASSERT_NE(port, nullptr);
  hcr.hcr_status = 0x4;  // bad system state: the driver is down
  auto failed = port->transact(mgir_query());
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().code(), ErrorCode::Io);
  EXPECT_NE(failed.error().message().find("status 0x4 (bad system state"), std::string::npos) << failed.error().message();
  EXPECT_FALSE(hcr.held());
  EXPECT_EQ(hcr.releases, hcr.takes);
  // The next command finds the HCR free and runs.
  hcr.hcr_status = 0;
  auto answer = port->transact(mgir_query());
  ASSERT_TRUE(answer.has_value()) << answer.error().message();
  EXPECT_EQ(hcr.issued.size(), 2u);
}

TEST(ToolsHcrPort, StatusesMapToTheirErrorCodes) {
  const std::pair<std::uint8_t, ErrorCode> cases[] = {
      {0x1, ErrorCode::Busy}, {0x3, ErrorCode::InvalidArgument}, {0x9, ErrorCode::Busy}, {0x7f, ErrorCode::Io}};
  for (const auto& [status, code] : cases) {
    FakeToolsHcr hcr;
    auto port = open_port(hcr);
    ASSERT_NE(port, nullptr);
    hcr.hcr_status = status;
    auto failed = port->transact(mgir_query());
    ASSERT_FALSE(failed.has_value()) << int{status};
    EXPECT_EQ(failed.error().code(), code) << int{status} << ": " << failed.error().message();
    EXPECT_FALSE(hcr.held());
  }
}

TEST(ToolsHcrPort, ABadOpcodeStatusIsNotSupported) {
  FakeToolsHcr hcr;
  auto port = open_port(hcr);
  ASSERT_NE(port, nullptr);
  hcr.hcr_status = 0x2;
  auto failed = port->transact(mgir_query());
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().code(), ErrorCode::NotSupported);
  EXPECT_NE(failed.error().message().find("the firmware has no tools HCR command 0x3b"), std::string::npos)
      << failed.error().message();
  EXPECT_FALSE(hcr.held());
}

TEST(ToolsHcrPort, AGoBitTheFirmwareNeverClearsTimesOut) {
  FakeToolsHcr hcr;
  auto port = open_port(hcr);
  ASSERT_NE(port, nullptr);
  hcr.firmware_clears_go = false;
  auto failed = port->transact(mgir_query());
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().code(), ErrorCode::Timeout);
  EXPECT_NE(failed.error().message().find("did not clear go"), std::string::npos) << failed.error().message();
  EXPECT_FALSE(hcr.held());
  EXPECT_EQ(hcr.issued.size(), 1u);
  // Go is still set: the next access waits for it, times out, and issues nothing.
  const unsigned reads_before = hcr.command_reads;
  auto again = port->transact(mgir_query());
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().code(), ErrorCode::Timeout);
  EXPECT_NE(again.error().message().find("go stayed set"), std::string::npos) << again.error().message();
  EXPECT_EQ(hcr.issued.size(), 1u);
  EXPECT_EQ(hcr.command_reads - reads_before, kFast.go_polls);  // bounded polling
  EXPECT_FALSE(hcr.held());
}

TEST(ToolsHcrPort, ASemaphoreNeverFreeIsBusyAndLeftToItsHolder) {
  FakeToolsHcr hcr;
  auto port = open_port(hcr);
  ASSERT_NE(port, nullptr);
  hcr.other_holds_semaphore = true;
  auto failed = port->transact(mgir_query());
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().code(), ErrorCode::Busy);
  EXPECT_NE(failed.error().message().find("the tools HCR semaphore is held"), std::string::npos)
      << failed.error().message();
  EXPECT_EQ(hcr.foreign_releases, 0u);  // never freed under its holder
  EXPECT_TRUE(hcr.issued.empty());
  EXPECT_EQ(hcr.unlocked_accesses, 0u);

  FakeToolsHcr busy;
  busy.other_holds_semaphore = true;
  auto not_opened = ToolsHcrRegisterPort::open(busy, kConnectX3ToolsHcr, kFast);
  ASSERT_FALSE(not_opened.has_value());
  EXPECT_EQ(not_opened.error().code(), ErrorCode::Busy);
  EXPECT_EQ(busy.foreign_releases, 0u);
}

TEST(ToolsHcrPort, TheLargestRegisterFillsTheMailboxAndOneMoreDwordIsRefused) {
  FakeToolsHcr hcr;
  auto port = open_port(hcr);
  ASSERT_NE(port, nullptr);
  AccessRegisterTlv request;
  request.register_id = 0x9001;
  request.data.assign(port->max_register_bytes(), 0x5a);
  auto answer = port->transact(request);
  ASSERT_TRUE(answer.has_value()) << answer.error().message();
  EXPECT_EQ(answer->data, request.data);  // the model echoes other registers
  EXPECT_EQ(hcr.mailbox_read_end, 288u);

  const unsigned takes = hcr.takes;
  request.data.resize(port->max_register_bytes() + 4);
  auto refused = port->transact(request);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(hcr.takes, takes);  // refused before touching the device
}

}  // namespace
}  // namespace openflint::test
