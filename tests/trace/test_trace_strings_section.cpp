// The TRACE_STRINGS section: our message table against the driver's printf subset, and hostile sections.
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

TEST(FirmwareTraceStrings, TheTableFollowsTheEnumAndTheDriversSubset) {
  const auto messages = firmware_trace_messages();
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const FirmwareTraceMessageInfo& m = messages[i];
    EXPECT_EQ(static_cast<std::size_t>(m.message), i);
    EXPECT_EQ(m.format.find("%%"), std::string_view::npos) << m.format;
    EXPECT_LE(count_trace_params(m.format), 7u) << m.format;
    for (std::size_t at = m.format.find('%'); at != std::string_view::npos; at = m.format.find('%', at + 1))
      EXPECT_THAT(std::string(1, m.format[at + 1]), ::testing::AnyOf("u", "x", "d")) << m.format;
    const auto& hca = kHcaFirmwareTracer.classes;
    const auto& sw = kSwitchFirmwareTracer.classes;
    EXPECT_TRUE(std::any_of(hca.begin(), hca.end(), [&](const TraceClass& c) { return c.name == m.hca_class; }));
    EXPECT_TRUE(std::any_of(sw.begin(), sw.end(), [&](const TraceClass& c) { return c.name == m.switch_class; }));
  }
  const auto section = firmware_trace_strings_section();
  ASSERT_FALSE(section.empty());
  EXPECT_EQ(section.size() % 4, 0u);
  auto back = decode_trace_strings(section);
  ASSERT_TRUE(back) << back.error().message();
  ASSERT_EQ(back->size(), messages.size());
  for (std::size_t i = 0; i < messages.size(); ++i) EXPECT_EQ((*back)[i], messages[i].format);
}

TEST(FirmwareTraceStrings, HostileSectionsDecodeToCleanErrors) {
  const auto good = firmware_trace_strings_section();
  const auto expect_invalid = [](std::vector<std::uint8_t> bytes, const std::string& what) {
    auto r = decode_trace_strings(bytes);
    ASSERT_FALSE(r) << what;
    EXPECT_EQ(r.error().code(), ErrorCode::InvalidImage) << what;
  };
  expect_invalid({}, "empty");
  expect_invalid(std::vector<std::uint8_t>(good.begin(), good.begin() + 15), "short header");
  auto bad = good;
  bad[0] ^= 1;
  expect_invalid(bad, "magic");
  bad = good;
  bad[5] = 2;  // version 2
  expect_invalid(bad, "version");
  bad = good;
  bad[6] = 0xff, bad[7] = 0xff;  // 65535 formats
  expect_invalid(bad, "huge count");
  bad = good;
  bad[8] = 0x7f;  // strings far past the section
  expect_invalid(bad, "strings size");
  bad = good;
  std::fill(bad.begin() + kTraceStringsHeader, bad.end(), 'A');  // no NUL anywhere
  expect_invalid(bad, "no NUL");
  std::vector<std::string_view> long_one{std::string_view("x")};
  const std::string huge(kMaxTraceStringsFormatLength + 1, 'y');
  long_one[0] = huge;
  EXPECT_FALSE(encode_trace_strings(long_one));
  std::vector<std::uint8_t> raw(kTraceStringsHeader + huge.size() + 4, 0);
  raw[0] = 'O', raw[1] = 'F', raw[2] = 'T', raw[3] = 'S', raw[5] = 1, raw[7] = 1;
  raw[10] = static_cast<std::uint8_t>((huge.size() + 1) >> 8), raw[11] = static_cast<std::uint8_t>(huge.size() + 1);
  std::copy(huge.begin(), huge.end(), raw.begin() + kTraceStringsHeader);
  expect_invalid(raw, "format too long");

  // A device booting an image with a hostile section runs without a string DB.
  bad = good;
  bad[6] = 0xff, bad[7] = 0xff;
  auto dev = device_running("connectx4", traced_image(28, 0x209, true, bad));
  EXPECT_EQ(cap(*dev).num_string_db, 0);
  EXPECT_FALSE(dev->tracer()->strings());
}

}  // namespace
}  // namespace openflint::test
