// The simulated firmware tracer: its registers, MCAM bits, ICMD commands, ownership and saved settings.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "tests/trace/SimTracerFixture.h"

namespace openflint::test {
namespace {

TEST(SimTracer, GeneratedStyleImageServesItsStringDb) {
  auto dev = device_running("connectx4", traced_image(28));
  const MtrcCapRegister c = cap(*dev);
  EXPECT_FALSE(c.trace_owner);
  EXPECT_TRUE(c.trace_to_memory);
  EXPECT_EQ(c.trc_ver, 1);
  EXPECT_EQ(c.first_string_trace, 0x20);
  EXPECT_EQ(c.num_string_trace, 0x0f);
  EXPECT_EQ(c.log_max_trace_buffer_size, 6);
  ASSERT_EQ(c.num_string_db, 1);
  const TraceStringDb db = read_string_db(*dev);
  const auto& built = dev->tracer()->strings();
  ASSERT_TRUE(built);
  EXPECT_TRUE(std::equal(db.section_bytes(0).begin(), db.section_bytes(0).end(), built->section_bytes[0].begin()));
  for (std::size_t i = 0; i < firmware_trace_messages().size(); ++i) {
    auto text = db.lookup(built->pointers[i]);
    ASSERT_TRUE(text);
    EXPECT_EQ(*text, firmware_trace_messages()[i].format);
  }
}

TEST(SimTracer, StdbRefusesUnalignedOutOfRangeAndOversizedReads) {
  auto dev = device_running("connectx4", traced_image(28));
  const std::uint32_t size = cap(*dev).string_db_param[0].size;
  ASSERT_GE(size, 128u);
  const auto status = [&](std::uint8_t index, std::uint32_t offset, std::uint32_t n, std::size_t send) {
    auto req = MtrcStdbRegister::request(index, offset, n).encode();
    req.resize(send, 0);
    return access(*dev, MtrcStdbRegister::kId, Tlv::kMethodQuery, req).status;
  };
  EXPECT_EQ(status(0, 0, 64, 8 + 64), 0);
  EXPECT_EQ(status(0, 32, 64, 8 + 64), kBadParam);        // unaligned offset
  EXPECT_EQ(status(0, 0, 100, 8 + 100), kBadParam);       // not a multiple of 64
  EXPECT_EQ(status(0, size, 64, 8 + 64), kBadParam);      // past the section
  EXPECT_EQ(status(1, 0, 64, 8 + 64), kBadParam);         // no such section
  EXPECT_EQ(status(0, 0, 128, 8 + 64), kBadParam);        // more than the request carries
  EXPECT_EQ(access(*dev, MtrcStdbRegister::kId, Tlv::kMethodWrite, MtrcStdbRegister::request(0, 0, 64).encode()).status,
            Tlv::kStatusMethodNotSupported);
}

TEST(SimTracer, McamListsTheTracerRegistersOnTracerFamiliesOnly) {
  const auto mcam = [](sim::SimDevice& dev) -> std::optional<McamRegister> {
    const Tlv r = query(dev, McamRegister::kId, McamRegister::kSize);
    if (r.status != 0) return std::nullopt;
    auto m = McamRegister::decode(r.data);
    return m ? std::optional<McamRegister>(*m) : std::nullopt;
  };
  auto cx4 = device_running("connectx4", traced_image(28));
  auto m = mcam(*cx4);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->tracer_registers(), 0xf);
  EXPECT_TRUE(m->lists(0x9062));  // MCC too
  auto cib = device_running("connectib", traced_image(28, 0x1ff));
  m = mcam(*cib);  // a tracer but no component update: MCAM answers now, without the MCC bits
  ASSERT_TRUE(m);
  EXPECT_EQ(m->tracer_registers(), 0xf);
  EXPECT_FALSE(m->lists(0x9062));
  auto sib = device_running("switchib", traced_image(28, 0x247));
  m = mcam(*sib);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->tracer_registers(), 0xf);
  EXPECT_EQ(cap(*sib).trace_to_memory, false);
  EXPECT_EQ(write_conf(*sib, MtrcConfRegister::kModeMemory, 6), kBadParam);  // FIFO only
  EXPECT_EQ(write_conf(*sib, MtrcConfRegister::kModeFifo, 0), 0);

  auto cx3 = sim::SimDevice::create("connectx3");
  ASSERT_TRUE(cx3);
  EXPECT_EQ((*cx3)->tracer(), nullptr);
  EXPECT_EQ(query(**cx3, McamRegister::kId, McamRegister::kSize).status, kNotSupported);
  EXPECT_EQ(query(**cx3, MtrcCapRegister::kId, MtrcCapRegister::kSize).status, kNotSupported);
  std::array<std::uint8_t, sim::kTraceBlockBytes> block{};
  EXPECT_FALSE((*cx3)->read_trace_block(0, block));
  std::vector<std::uint8_t> mailbox(16, 0);
  EXPECT_EQ(icmd(**cx3, 0xf003, mailbox), sim::kIcmdStatusBadOpcode);

  // No firmware runs (erased flash): neither MCAM nor the tracer registers answer.
  auto blank = sim::SimDevice::create("connectx4");
  ASSERT_TRUE(blank);
  EXPECT_EQ(query(**blank, McamRegister::kId, McamRegister::kSize).status, kNotSupported);
  EXPECT_EQ(query(**blank, MtrcCapRegister::kId, MtrcCapRegister::kSize).status, kNotSupported);
}

TEST(SimTracer, OwnershipIsHandedOverOnlyWhenFree) {
  auto dev = device_running("connectx4", traced_image(28));
  EXPECT_EQ(ask_owner(*dev, true), 1);
  EXPECT_TRUE(cap(*dev).trace_owner);
  EXPECT_EQ(ask_owner(*dev, true), 0);  // a second requester is refused
  EXPECT_EQ(ask_owner(*dev, false), 0);
  EXPECT_FALSE(cap(*dev).trace_owner);
  EXPECT_EQ(ask_owner(*dev, true), 1);  // retaken
  EXPECT_EQ(write_conf(*dev, 2, 6), kBadParam);
  EXPECT_EQ(write_conf(*dev, MtrcConfRegister::kModeMemory, 7), kBadParam);
  EXPECT_EQ(write_conf(*dev, MtrcConfRegister::kModeMemory, 6), 0);
  auto conf = MtrcConfRegister::decode(query(*dev, MtrcConfRegister::kId, MtrcConfRegister::kSize).data);
  ASSERT_TRUE(conf);
  EXPECT_EQ(conf->trace_mode, 1);
  EXPECT_EQ(conf->log_trace_buffer_size, 6);
  EXPECT_EQ(conf->trace_mkey, 0x1234u);
}

TEST(SimTracer, GetFwInfoAnswersTheRunningFirmwareAndFailsInLivefish) {
  auto dev = device_running("connectx4", traced_image(28));
  std::vector<std::uint8_t> m(64, 0xee);
  ASSERT_EQ(icmd(*dev, 0x8007, m), sim::kIcmdStatusOk);
  EXPECT_EQ(m[0] << 8 | m[1], 12);
  EXPECT_EQ(m[4] << 8 | m[5], 28);
  EXPECT_EQ(m[6] << 8 | m[7], 1100);
  // psid[0] is byte 23: each dword's characters last byte first.
  const std::string psid = {static_cast<char>(m[23]), static_cast<char>(m[22]), static_cast<char>(m[21]),
                            static_cast<char>(m[20]), static_cast<char>(m[27])};
  EXPECT_EQ(psid, "MT_00");
  auto blank = sim::SimDevice::create("connectx4");
  ASSERT_TRUE(blank);
  EXPECT_EQ(icmd(**blank, 0x8007, m), sim::kIcmdStatusOperational);
}

TEST(SimTracer, MaskAndLevelOfSetItraceFilterMessages) {
  auto dev = device_running("connectx4", traced_image(28));
  FirmwareTracer& tracer = *dev->tracer();
  start_tracing(*dev);
  // INFO default: a refused register (WARNING, CMD_IF) is logged.
  EXPECT_EQ(query(*dev, 0x9999, 16).status, kNotSupported);
  EXPECT_EQ(kinds(tracer.recent()).back(), M::RegisterRefused);
  // Mask without CMD_IF (bit 5): no longer logged.
  const std::uint32_t flash_only = 1u << 23;
  ASSERT_EQ(set_itrace(*dev, flash_only | 1u << 26, 1), sim::kIcmdStatusOk);  // FLASH + ICMD
  EXPECT_EQ(kinds(tracer.recent()).back(), M::SetItrace);
  const auto written = tracer.counters().messages_written;
  EXPECT_EQ(query(*dev, 0x9999, 16).status, kNotSupported);
  EXPECT_EQ(tracer.counters().messages_written, written);
  // Level ERROR with every class: a WARNING is filtered, an ERROR is not.
  // (SET_ITRACE is traced under the mask and level it replaces: FLASH + ICMD at INFO logs it.)
  ASSERT_EQ(set_itrace(*dev, 0xffffffff, 3), sim::kIcmdStatusOk);
  EXPECT_EQ(kinds(tracer.recent()).back(), M::SetItrace);
  EXPECT_EQ(tracer.counters().messages_written, written + 1);
  EXPECT_EQ(query(*dev, 0x9999, 16).status, kNotSupported);
  EXPECT_EQ(tracer.counters().messages_written, written + 1);
  EXPECT_EQ(set_itrace(*dev, 0xffffffff, 4), sim::kIcmdStatusBadCommand);  // no level 4
  EXPECT_EQ(tracer.settings().level, 3);
  // Level DEBUG: a debug message (a flash program) is logged.
  ASSERT_EQ(set_itrace(*dev, 0xffffffff, 0), sim::kIcmdStatusOk);
  const std::vector<std::uint8_t> page(16, 0);
  ASSERT_TRUE(dev->firmware_program(0xfff000, page));
  EXPECT_EQ(kinds(tracer.recent()).back(), M::FlashProgram);
  EXPECT_THAT(tracer.recent().back().params, ::testing::ElementsAre(0xfff000u, 16u));
}

TEST(SimTracer, StateFileKeepsOwnerMaskLevelAndConfiguration) {
  const auto dir = std::filesystem::temp_directory_path() / ("openflint-sim-tracer-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  {
    auto dev = device_running("connectx4", traced_image(28));
    start_tracing(*dev);
    ASSERT_EQ(set_itrace(*dev, 0x00800020, 2), sim::kIcmdStatusOk);
    ASSERT_TRUE(dev->save_state(dir));
  }
  auto loaded = sim::SimDevice::load_state(dir);
  ASSERT_TRUE(loaded) << loaded.error().message();
  const sim::FirmwareTracerSettings s = (*loaded)->tracer()->settings();
  EXPECT_TRUE(s.owner);
  EXPECT_EQ(s.mask, 0x00800020u);
  EXPECT_EQ(s.level, 2);
  EXPECT_EQ(s.trace_mode, MtrcConfRegister::kModeMemory);
  EXPECT_EQ(s.log_trace_buffer_size, 6);
  EXPECT_EQ(s.trace_mkey, 0x1234u);
  EXPECT_EQ(s.trace_status, MtrcCtrlRegister::kStatusActive);
  EXPECT_EQ(cap(**loaded).num_string_db, 1);  // the string DB of the firmware that runs
  EXPECT_EQ(ask_owner(**loaded, true), 0);   // still owned

  // An older state file (no "tracer") loads with the defaults.
  auto text = sim::SimStateFile::parse((sim::SimStateFile{}).to_json());
  ASSERT_TRUE(text);
  EXPECT_FALSE(text->tracer);
  sim::SimStateFile with;
  with.tracer = sim::FirmwareTracerSettings{.owner = true, .mask = 5, .level = 0, .trace_mode = 1,
                                            .log_trace_buffer_size = 3, .trace_mkey = 9, .trace_status = 1};
  auto back = sim::SimStateFile::parse(with.to_json());
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(back->tracer, with.tracer);
  std::string broken = with.to_json();
  broken.replace(broken.find("\"level\": 0"), 11, "\"level\": 9");
  EXPECT_FALSE(sim::SimStateFile::parse(broken));

  // A power cycle gives the defaults back.
  (*loaded)->power_cycle();
  EXPECT_EQ((*loaded)->tracer()->settings(), sim::FirmwareTracerSettings{});
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace openflint::test
