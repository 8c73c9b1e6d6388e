// SimTracerFixture: helpers for the simulated tracer's tests — images with TRACE_STRINGS, register and ICMD access, the driver's string-DB read and ring consumer.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <unistd.h>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fwops/burn/FirmwareBurn.h"
#include "image/FirmwareTraceStrings.h"
#include "image/SectionType.h"
#include "image/TraceEvent.h"
#include "image/TraceMessageFormat.h"
#include "image/TraceParser.h"
#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/registers/McamRegister.h"
#include "mtcr/registers/MtrcCapRegister.h"
#include "mtcr/registers/MtrcConfRegister.h"
#include "mtcr/registers/MtrcCtrlRegister.h"
#include "mtcr/registers/MtrcStdbRegister.h"
#include "sim/FirmwareCommands.h"
#include "sim/FirmwareRegisters.h"
#include "sim/FirmwareTracer.h"
#include "sim/SimDevice.h"
#include "sim/SimRegisterPort.h"
#include "sim/SimStateFile.h"
#include "tests/support/LiveDevice.h"
#include "tests/support/SyntheticImage.h"

namespace openflint::test {

using sim::FirmwareTracer;
using M = FirmwareTraceMessage;
using Tlv = AccessRegisterTlv;

inline constexpr std::uint8_t kBadParam = Tlv::kStatusBadParameter;
inline constexpr std::uint8_t kNotSupported = Tlv::kStatusRegisterNotSupported;

// An FS3 image with MCC, FW 12.`minor`.1100, carrying our TRACE_STRINGS section unless told not to.
inline std::vector<std::uint8_t> traced_image(std::uint16_t minor, std::uint32_t hw_id = 0x209, bool strings = true,
                                              std::vector<std::uint8_t> section = firmware_trace_strings_section()) {
  SyntheticSpec s;
  s.hw_id = hw_id;
  s.fw_major = 12;
  s.fw_minor = minor;
  s.fw_subminor = 1100;
  s.psid = "MT_0000000001";
  if (strings) s.extra.push_back({.type = section_type::kTraceStrings, .data = std::move(section), .crc_field = 0, .device_data = false});
  return build_fs3_mcc(s).bytes;
}

inline Tlv access(sim::SimDevice& dev, std::uint16_t id, std::uint8_t method, std::vector<std::uint8_t> data) {
  Tlv r = Tlv::request(id, method, std::move(data));
  auto a = sim::answer_register(dev, r);
  EXPECT_TRUE(a) << a.error().message();
  return r;
}

inline Tlv query(sim::SimDevice& dev, std::uint16_t id, std::size_t size) {
  return access(dev, id, Tlv::kMethodQuery, std::vector<std::uint8_t>(size, 0));
}

inline MtrcCapRegister cap(sim::SimDevice& dev) {
  const Tlv r = query(dev, MtrcCapRegister::kId, MtrcCapRegister::kSize);
  EXPECT_EQ(r.status, 0);
  auto c = MtrcCapRegister::decode(r.data);
  EXPECT_TRUE(c);
  return c ? *c : MtrcCapRegister{};
}

// The reply's trace_owner to a SET of trace_owner (-1 when refused at the register level).
inline int ask_owner(sim::SimDevice& dev, bool take) {
  MtrcCapRegister c;
  c.trace_owner = take;
  const Tlv r = access(dev, MtrcCapRegister::kId, Tlv::kMethodWrite, c.encode());
  if (r.status != 0) return -1;
  auto back = MtrcCapRegister::decode(r.data);
  return back && back->trace_owner ? 1 : 0;
}

inline std::uint8_t write_conf(sim::SimDevice& dev, std::uint8_t mode, std::uint8_t log_size) {
  MtrcConfRegister c;
  c.trace_mode = mode;
  c.log_trace_buffer_size = log_size;
  c.trace_mkey = 0x1234;
  return access(dev, MtrcConfRegister::kId, Tlv::kMethodWrite, c.encode()).status;
}

// The Linux driver's start (fw-trace-and-fwctl.md A2 step 3).
inline void start_tracing(sim::SimDevice& dev) {
  ASSERT_EQ(ask_owner(dev, true), 1);
  ASSERT_EQ(write_conf(dev, MtrcConfRegister::kModeMemory, MtrcConfRegister::kLinuxLogBufferSize), 0);
  const auto ctrl = MtrcCtrlRegister::set_status(MtrcCtrlRegister::kStatusActive, true).encode();
  ASSERT_EQ(access(dev, MtrcCtrlRegister::kId, Tlv::kMethodWrite, ctrl).status, 0);
}

inline std::uint8_t icmd(sim::SimDevice& dev, std::uint16_t opcode, std::vector<std::uint8_t>& mailbox) {
  return sim::run_firmware_command(dev, opcode, mailbox);
}

inline std::uint8_t set_itrace(sim::SimDevice& dev, std::uint32_t mask, std::uint32_t level) {
  std::vector<std::uint8_t> m(16, 0);
  for (int i = 0; i < 4; ++i) {
    m[i] = static_cast<std::uint8_t>(mask >> (24 - 8 * i));
    m[4 + i] = static_cast<std::uint8_t>(level >> (24 - 8 * i));
  }
  return icmd(dev, 0xf003, m);
}

// The string DB as the driver reads it: MTRC_CAP's sections, MTRC_STDB chunk by chunk.
inline TraceStringDb read_string_db(sim::SimDevice& dev) {
  const MtrcCapRegister c = cap(dev);
  std::vector<TraceStringSection> sections;
  for (const auto& p : c.string_dbs()) sections.push_back({.base_address = p.base_address, .size = p.size});
  auto db = TraceStringDb::create(sections);
  EXPECT_TRUE(db);
  for (std::size_t i = 0; i < sections.size(); ++i) {
    for (const TraceStringChunk& chunk : trace_string_read_plan(sections[i].size)) {
      const auto req = MtrcStdbRegister::request(static_cast<std::uint8_t>(i), chunk.offset, chunk.size).encode();
      const Tlv r = access(dev, MtrcStdbRegister::kId, Tlv::kMethodQuery, req);
      EXPECT_EQ(r.status, 0);
      auto got = MtrcStdbRegister::decode(r.data);
      EXPECT_TRUE(got);
      if (got) {
        EXPECT_TRUE(db->store(i, chunk.offset, got->data));
      }
    }
  }
  return std::move(*db);
}

// The driver's consumer: from block 0, each block whose last word's timestamp is newer than the
// last handled one, through TraceParser.
inline std::vector<TraceRecord> read_ring(sim::SimDevice& dev, TraceParser& parser, std::size_t* blocks = nullptr) {
  std::vector<TraceRecord> out;
  std::uint64_t last = 0;
  for (std::size_t i = 0; i < sim::kTraceBlocks; ++i) {
    std::array<std::uint8_t, sim::kTraceBlockBytes> block{};
    EXPECT_TRUE(dev.read_trace_block(i, block));
    const auto stamp = TimestampTraceEvent::decode(load_trace_word(std::span(block).subspan<248, 8>()));
    if (trace_event_id(load_trace_word(std::span(block).subspan<248, 8>())) != TimestampTraceEvent::kEventId ||
        stamp.timestamp <= last)
      break;
    last = stamp.timestamp;
    auto records = parser.feed_bytes(block);
    EXPECT_TRUE(records);
    if (records) out.insert(out.end(), records->begin(), records->end());
    if (blocks != nullptr) ++*blocks;
  }
  return out;
}

inline TraceParser driver_parser(sim::SimDevice& dev, bool with_db = true) {
  const MtrcCapRegister c = cap(dev);
  TraceParserConfig config;
  config.trc_ver = c.trc_ver;
  config.ids = {.first_string_trace = c.first_string_trace, .num_string_trace = c.num_string_trace};
  auto empty = TraceStringDb::create({});
  return TraceParser(with_db ? read_string_db(dev) : std::move(*empty), config);
}

inline std::string expected_text(const sim::TracedMessage& m) {
  const std::string format = rewrite_trace_format(firmware_trace_message(m.message).format);
  return format_trace_message(format, m.params).text;
}

inline std::vector<M> kinds(const std::vector<sim::TracedMessage>& messages) {
  std::vector<M> out;
  for (const auto& m : messages) out.push_back(m.message);
  return out;
}

}  // namespace openflint::test
