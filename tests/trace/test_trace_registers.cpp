// The tracer's access registers (MTRC_CAP/CONF/STDB/CTRL) and MCAM's tracer bits: field placement against hand-computed bytes, round trips.
#include <gtest/gtest.h>

#include <vector>

#include "mtcr/registers/McamRegister.h"
#include "mtcr/registers/MtrcCapRegister.h"
#include "mtcr/registers/MtrcConfRegister.h"
#include "mtcr/registers/MtrcCtrlRegister.h"
#include "mtcr/registers/MtrcStdbRegister.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

using test::FailsWith;
using test::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::uint8_t> slice(const std::vector<std::uint8_t>& v, std::size_t at, std::size_t n) {
  return {v.begin() + static_cast<std::ptrdiff_t>(at), v.begin() + static_cast<std::ptrdiff_t>(at + n)};
}

MtrcCapRegister sample_cap() {
  MtrcCapRegister c;
  c.trace_owner = true;
  c.trace_to_memory = true;
  c.trc_ver = 1;
  c.num_string_db = 2;
  c.first_string_trace = 0x10;
  c.num_string_trace = 0x20;
  c.tracer_capabilities = 2;
  c.log_max_trace_buffer_size = 0x0c;
  c.string_db_param[0] = {0x1000, 0x4000};
  c.string_db_param[1] = {0x5000, 0x1c0};
  c.string_db_param[7] = {0xfedcba98, 0xabcdef};
  return c;
}

TEST(MtrcCap, FieldsSitWhereThePrmPutsThem) {
  const std::vector<std::uint8_t> b = sample_cap().encode();
  ASSERT_EQ(b.size(), 0x80u);
  EXPECT_THAT(slice(b, 0x00, 4), ElementsAre(0xc1, 0x00, 0x00, 0x02));  // owner, to_memory, trc_ver 1, 2 DBs
  EXPECT_THAT(slice(b, 0x04, 4), ElementsAre(0x10, 0x20, 0x00, 0x00));
  EXPECT_THAT(slice(b, 0x08, 4), ElementsAre(0x80, 0x00, 0x00, 0x0c));  // capabilities MEM, log_max 12
  EXPECT_THAT(slice(b, 0x10, 8), ElementsAre(0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x40, 0x00));
  EXPECT_THAT(slice(b, 0x18, 8), ElementsAre(0x00, 0x00, 0x50, 0x00, 0x00, 0x00, 0x01, 0xc0));
  EXPECT_THAT(slice(b, 0x48, 8), ElementsAre(0xfe, 0xdc, 0xba, 0x98, 0x00, 0xab, 0xcd, 0xef));
}

TEST(MtrcCap, RoundTripsAndListsTheSectionsInUse) {
  const auto back = MtrcCapRegister::decode(sample_cap().encode());
  ASSERT_THAT(back, IsOk());
  EXPECT_TRUE(back->trace_owner);
  EXPECT_TRUE(back->trace_to_memory);
  EXPECT_EQ(back->trc_ver, 1);
  EXPECT_EQ(back->first_string_trace, 0x10);
  EXPECT_EQ(back->num_string_trace, 0x20);
  EXPECT_EQ(back->tracer_capabilities, 2);
  EXPECT_EQ(back->log_max_trace_buffer_size, 0x0c);
  ASSERT_EQ(back->string_dbs().size(), 2u);
  EXPECT_EQ(back->string_dbs()[1].base_address, 0x5000u);
  EXPECT_EQ(back->string_dbs()[1].size, 0x1c0u);
  EXPECT_EQ(back->string_db_param[7].base_address, 0xfedcba98u);
}

TEST(MtrcCap, SizeIsCutTo24BitsAndShortRepliesFail) {
  std::vector<std::uint8_t> b = sample_cap().encode();
  b[0x14] = 0xff;  // reserved bits above string_db_size
  b[0x00] = 0x3c;  // reserved bits between the flags and trc_ver
  const auto back = MtrcCapRegister::decode(b);
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(back->string_db_param[0].size, 0x4000u);
  EXPECT_FALSE(back->trace_owner);
  EXPECT_EQ(back->trc_ver, 0);
  EXPECT_THAT(MtrcCapRegister::decode(std::vector<std::uint8_t>(0x4f, 0)), FailsWith(ErrorCode::InvalidImage, HasSubstr("79 bytes")));
}

TEST(MtrcConf, FieldsAndRoundTrip) {
  MtrcConfRegister c;
  c.trace_mode = MtrcConfRegister::kModeMemory;
  c.log_trace_buffer_size = MtrcConfRegister::kLinuxLogBufferSize;
  c.trace_mkey = 0x00abcdef;
  const std::vector<std::uint8_t> b = c.encode();
  EXPECT_THAT(slice(b, 0, 12), ElementsAre(0, 0, 0, 1, 0, 0, 0, 6, 0x00, 0xab, 0xcd, 0xef));
  const auto back = MtrcConfRegister::decode(b);
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(back->trace_mode, 1);
  EXPECT_EQ(back->log_trace_buffer_size, 6);
  EXPECT_EQ(back->trace_mkey, 0x00abcdefu);
}

TEST(MtrcCtrl, TheDriversTwoSetsAndTheTimestamp) {
  EXPECT_THAT(slice(MtrcCtrlRegister::set_status(MtrcCtrlRegister::kStatusActive, true).encode(), 0, 4),
              ElementsAre(0x48, 0x00, 0x00, 0x01));
  EXPECT_THAT(slice(MtrcCtrlRegister::arm().encode(), 0, 4), ElementsAre(0x08, 0x00, 0x00, 0x00));
  std::vector<std::uint8_t> b(MtrcCtrlRegister::kSize, 0);
  b[0] = 0x40;  // ACTIVE
  b[1] = 0x02;  // slcg_cmd 2
  b[8] = 0xff; b[9] = 0xff; b[10] = 0xff; b[11] = 0xff;  // only [20:0] count
  b[12] = 0x12; b[13] = 0x34; b[14] = 0x56; b[15] = 0x78;
  const auto r = MtrcCtrlRegister::decode(b);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->trace_status, MtrcCtrlRegister::kStatusActive);
  EXPECT_EQ(r->slcg_cmd, 2);
  EXPECT_FALSE(r->arm_event);
  EXPECT_EQ(r->current_timestamp, 0x1fffff12345678u);
  EXPECT_EQ(MtrcCtrlRegister::decode(r->encode())->current_timestamp, 0x1fffff12345678u);
}

TEST(MtrcStdb, RequestBytesAndReplyDecoding) {
  const std::vector<std::uint8_t> req = MtrcStdbRegister::request(3, 0x100, 0x40).encode();
  ASSERT_EQ(req.size(), 8u + 0x40);
  EXPECT_THAT(slice(req, 0, 8), ElementsAre(0x30, 0x00, 0x00, 0x40, 0x00, 0x00, 0x01, 0x00));
  MtrcStdbRegister reply = MtrcStdbRegister::request(3, 0x100, 0x40);
  reply.data.assign(0x40, 0);
  reply.data[0] = 'h';
  reply.data[0x3f] = 'z';
  const auto back = MtrcStdbRegister::decode(reply.encode());
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(back->string_db_index, 3);
  EXPECT_EQ(back->start_offset, 0x100u);
  ASSERT_EQ(back->data.size(), 0x40u);
  EXPECT_EQ(back->data[0], 'h');
  EXPECT_EQ(back->data[0x3f], 'z');
  std::vector<std::uint8_t> short_reply = reply.encode();
  short_reply.resize(8 + 0x3c);
  EXPECT_THAT(MtrcStdbRegister::decode(short_reply), FailsWith(ErrorCode::InvalidImage, HasSubstr("read_size")));
}

TEST(MtrcStdb, RequestRules) {
  EXPECT_THAT(MtrcStdbRegister::request(0, 0x100, 0x100).check_request(0x200, 256), IsOk());
  EXPECT_THAT(MtrcStdbRegister::request(0, 0, 0).check_request(0x200, 256), FailsWith(ErrorCode::InvalidArgument, HasSubstr("read_size")));
  EXPECT_THAT(MtrcStdbRegister::request(0, 0, 100).check_request(0x200, 256), FailsWith(ErrorCode::InvalidArgument, HasSubstr("multiple of 64")));
  EXPECT_THAT(MtrcStdbRegister::request(0, 32, 64).check_request(0x200, 256), FailsWith(ErrorCode::InvalidArgument, HasSubstr("start_offset")));
  EXPECT_THAT(MtrcStdbRegister::request(0, 0x1c0, 0x80).check_request(0x200, 256), FailsWith(ErrorCode::InvalidArgument, HasSubstr("past the section")));
  EXPECT_THAT(MtrcStdbRegister::request(0, 0, 0x200).check_request(0x200, 256), FailsWith(ErrorCode::InvalidArgument, HasSubstr("one access")));
  // An offset near 2^32 must not wrap into the section.
  EXPECT_THAT(MtrcStdbRegister::request(0, 0xffffffc0, 0x40).check_request(0x200, 256), FailsWith(ErrorCode::InvalidArgument));
}

TEST(Mcam, TracerRegistersAreBits0x40To0x43OfGroup0) {
  McamRegister m;
  for (std::uint16_t id = 0x9040; id <= 0x9043; ++id) m.set_listed(id);
  const std::vector<std::uint8_t> b = m.encode();
  ASSERT_EQ(b.size(), 0x48u);
  EXPECT_EQ(b[0x0f], 0x0f);  // mask bit 64..67: byte 15 - 8 of the 16-byte mask
  for (std::size_t i = 0x08; i < 0x18; ++i)
    if (i != 0x0f) {
      EXPECT_EQ(b[i], 0) << i;
    }
  EXPECT_EQ(m.tracer_registers(), 0x0f);
  m.set_listed(0x9041, false);
  m.set_listed(0x9042, false);
  EXPECT_EQ(m.tracer_registers(), 0x09);
  m.set_listed(0x907f);  // MCAM itself: the mask's top bit
  const auto back = McamRegister::decode(m.encode());
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(back->mng_access_reg_cap_mask[0], 0x80);
  EXPECT_TRUE(back->lists(0x9040));
  EXPECT_FALSE(back->lists(0x9041));
  EXPECT_EQ(back->tracer_registers(), 0x09);
  McamRegister other = *back;
  other.access_reg_group = 1;  // the same bits now mean 0x90c0..: no tracer
  EXPECT_EQ(other.tracer_registers(), 0);
  EXPECT_FALSE(other.lists(0x9040));
  EXPECT_THAT(McamRegister::decode(std::vector<std::uint8_t>(0x17, 0)), FailsWith(ErrorCode::InvalidImage));
}

}  // namespace
}  // namespace openflint
