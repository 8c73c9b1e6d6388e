// The tracer library over a fake register port: capabilities and refusals, the string DB by chunk
// (bounded by the port), the ownership probe and its RAII release, the SET_ITRACE payload, levels.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string_view>
#include <vector>

#include "fwops/trace/FirmwareTracer.h"
#include "fwops/trace/TracerOwnership.h"
#include "fwops/trace/TracerRegisters.h"
#include "tests/support/ResultMatchers.h"
#include "tests/trace_cli/FakeTracerPort.h"

namespace openflint {
namespace {

using test::FailsWith;
using test::FakeTracerPort;
using test::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A Result's value, or `otherwise` when it failed.
template <typename T, typename U>
T value_or_else(Result<T> r, U otherwise) {
  return r ? *r : static_cast<T>(otherwise);
}

// Two sections: the second small enough to take the 64-byte leftover reads.
BuiltTraceStrings sample_strings() {
  std::vector<std::string> owned;
  for (int i = 0; i < 40; ++i) owned.push_back("message number " + std::to_string(i) + " value %d");
  std::vector<std::string_view> formats(owned.begin(), owned.end());
  auto built = build_trace_strings(formats, TraceStringDbLayout{.base_address = 0x1000, .max_section_size = 0x400});
  EXPECT_THAT(built, IsOk());
  return *built;
}

TEST(TracerLibrary, CapabilitiesComeFromMtrcCapAfterMcam) {
  FakeTracerPort port(sample_strings(), 0x100 + 8);
  auto cap = query_tracer_capabilities(port);
  ASSERT_THAT(cap, IsOk());
  EXPECT_EQ(cap->num_string_db, port.capabilities().num_string_db);
  EXPECT_GE(cap->num_string_db, 2);
  EXPECT_THAT(port.log, ElementsAre("mcam", "cap q"));
}

TEST(TracerLibrary, AbsentTracerIsNotSupported) {
  FakeTracerPort no_bits(sample_strings(), 0x108);
  no_bits.mcam_lists_tracer = false;
  EXPECT_THAT(query_tracer_capabilities(no_bits), FailsWith(ErrorCode::NotSupported, HasSubstr("MCAM")));
  EXPECT_THAT(no_bits.log, ElementsAre("mcam"));  // MTRC_CAP not even asked

  FakeTracerPort no_register(sample_strings(), 0x108);
  no_register.mcam_answers = false;
  no_register.has_tracer = false;
  EXPECT_THAT(query_tracer_capabilities(no_register), FailsWith(ErrorCode::NotSupported, HasSubstr("register not supported")));

  FakeTracerPort old_firmware(sample_strings(), 0x108);  // no MCAM, but MTRC_CAP answers
  old_firmware.mcam_answers = false;
  EXPECT_THAT(query_tracer_capabilities(old_firmware), IsOk());
}

void expect_same_db(const TraceStringDb& got, const BuiltTraceStrings& want) {
  ASSERT_EQ(got.section_count(), want.sections.size());
  for (std::size_t i = 0; i < want.sections.size(); ++i) {
    const auto bytes = got.section_bytes(i);
    EXPECT_EQ(std::vector<std::uint8_t>(bytes.begin(), bytes.end()), want.section_bytes[i]) << "section " << i;
  }
}

TEST(TracerLibrary, StringDbIsReadByTheDriversPlanWhenThePortCarries256) {
  const BuiltTraceStrings strings = sample_strings();
  FakeTracerPort port(strings, 0x100 + 8 + 64);  // room for more than 256: chunks stay at the plan's 256
  auto cap = query_tracer_capabilities(port);
  ASSERT_THAT(cap, IsOk());
  auto db = read_trace_string_db(port, *cap);
  ASSERT_THAT(db, IsOk());
  expect_same_db(*db, strings);
  std::size_t stdb = 0;
  for (const auto& entry : port.log) {
    if (!entry.starts_with("stdb ")) continue;
    ++stdb;
    const std::string size = entry.substr(entry.rfind(' ') + 1);
    EXPECT_TRUE(size == "256" || size == "64") << entry;
  }
  std::size_t planned = 0;
  for (const auto& s : strings.sections) planned += trace_string_read_plan(s.size).size();
  EXPECT_EQ(stdb, planned);
}

TEST(TracerLibrary, ChunksShrinkToWhatANarrowPortCarries) {
  const BuiltTraceStrings strings = sample_strings();
  FakeTracerPort port(strings, 8 + 150);  // 150 data bytes: 128-byte pieces
  EXPECT_EQ(max_trace_string_chunk(port), 128u);
  auto db = read_trace_string_db(port, port.capabilities());
  ASSERT_THAT(db, IsOk());
  expect_same_db(*db, strings);
  for (const auto& entry : port.log) {
    if (!entry.starts_with("stdb ")) continue;
    const std::string size = entry.substr(entry.rfind(' ') + 1);
    EXPECT_TRUE(size == "128" || size == "64") << entry;
  }

  FakeTracerPort too_narrow(strings, 8 + 60);
  EXPECT_EQ(max_trace_string_chunk(too_narrow), 0u);
  EXPECT_THAT(read_trace_string_db(too_narrow, too_narrow.capabilities()), FailsWith(ErrorCode::NotSupported));
}

TEST(TracerLibrary, ARefusedChunkIsIoNamingSectionAndOffset) {
  FakeTracerPort port(sample_strings(), 0x108);
  port.stdb_status = AccessRegisterTlv::kStatusBadParameter;
  EXPECT_THAT(read_trace_string_db(port, port.capabilities()),
              FailsWith(ErrorCode::Io, HasSubstr("section 0 at offset 0x0 (256 bytes) through MTRC_STDB: bad parameter")));
}

TEST(TracerLibrary, OwnershipProbeGivesBackWhatItWasGranted) {
  FakeTracerPort port(sample_strings(), 0x108);
  auto owner = probe_tracer_owner(port);
  ASSERT_THAT(owner, IsOk());
  EXPECT_EQ(*owner, TracerOwner::Nobody);
  EXPECT_FALSE(port.owned_by_us);
  EXPECT_THAT(port.log, ElementsAre("cap w 1", "cap w 0"));

  FakeTracerPort taken(sample_strings(), 0x108);
  taken.owned_by_other = true;
  owner = probe_tracer_owner(taken);
  ASSERT_THAT(owner, IsOk());
  EXPECT_EQ(*owner, TracerOwner::Someone);
  EXPECT_THAT(taken.log, ElementsAre("cap w 1"));  // nothing to give back
}

TEST(TracerLibrary, OwnershipIsGivenBackOnExceptionsAndEarlyReturns) {
  FakeTracerPort port(sample_strings(), 0x108);
  try {
    auto granted = TracerOwnership::request(port);
    ASSERT_THAT(granted, IsOk());
    ASSERT_TRUE(granted->has_value());
    EXPECT_TRUE(port.owned_by_us);
    throw std::runtime_error("something failed while owning");
  } catch (const std::runtime_error&) {
  }
  EXPECT_FALSE(port.owned_by_us);
  EXPECT_THAT(port.log, ElementsAre("cap w 1", "cap w 0"));

  port.log.clear();
  auto early = [&]() -> Result<void> {
    OF_ASSIGN(std::optional<TracerOwnership> held, TracerOwnership::request(port));
    EXPECT_TRUE(held.has_value());
    return make_error(ErrorCode::Io, "an early return");
  };
  EXPECT_THAT(early(), FailsWith(ErrorCode::Io));
  EXPECT_FALSE(port.owned_by_us);
  EXPECT_THAT(port.log, ElementsAre("cap w 1", "cap w 0"));

  port.log.clear();  // moved: given back once
  {
    auto granted = TracerOwnership::request(port);
    ASSERT_THAT(granted, IsOk());
    TracerOwnership moved = std::move(**granted);
    EXPECT_THAT(moved.release(), IsOk());
  }
  EXPECT_THAT(port.log, ElementsAre("cap w 1", "cap w 0"));
}

TEST(TracerLibrary, SetItracePayloadIsMaskThenLevel) {
  EXPECT_THAT(set_itrace_payload(0x81000020, 2),
              ElementsAre(0x81, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x02, 0, 0, 0, 0, 0, 0, 0, 0));
  EXPECT_EQ(kIcmdSetItrace, 0xf003);
}

TEST(TracerLibrary, LevelsByNumberOrName) {
  EXPECT_EQ(value_or_else(parse_trace_level("0"), 99), 0);
  EXPECT_EQ(value_or_else(parse_trace_level("3"), 99), 3);
  EXPECT_EQ(value_or_else(parse_trace_level("info"), 99), 1);
  EXPECT_EQ(value_or_else(parse_trace_level("WARNING"), 99), 2);
  EXPECT_EQ(value_or_else(parse_trace_level("Error"), 99), 3);
  EXPECT_THAT(parse_trace_level("4"), FailsWith(ErrorCode::InvalidArgument));
  EXPECT_THAT(parse_trace_level("VERBOSE"), FailsWith(ErrorCode::InvalidArgument, HasSubstr("DEBUG")));
  EXPECT_THAT(parse_trace_level(""), FailsWith(ErrorCode::InvalidArgument));
  EXPECT_EQ(trace_level_name(2), "WARNING");
}

}  // namespace
}  // namespace openflint
