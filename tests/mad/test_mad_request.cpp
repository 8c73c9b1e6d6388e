// MadRequestHandler: the responder's request parsing and answers, on MAD bytes without a fabric.
#include <gtest/gtest.h>

#include <array>

#include "fabricsim/MadRequestHandler.h"
#include "fabricsim/MemoryCrSpace.h"
#include "mtcr/inband/MadFormat.h"

namespace openflint {
namespace {

using Mad = std::array<std::uint8_t, mad::kMadSize>;

Mad request(std::uint8_t cls, std::uint8_t method, std::uint16_t attr, std::uint32_t attr_mod) {
  Mad m{};
  m[mad::kOffBaseVersion] = 1;
  m[mad::kOffClass] = cls;
  m[mad::kOffClassVersion] = 1;
  m[mad::kOffMethod] = method;
  mad::put64(m.data(), mad::kOffTid, 0x55);
  mad::put16(m.data(), mad::kOffAttrId, attr);
  mad::put32(m.data(), mad::kOffAttrMod, attr_mod);
  return m;
}

class MadRequestTest : public ::testing::Test {
 protected:
  MemoryCrSpace memory_{1u << 20, 0x209};
  MadRequestHandler handler_{memory_, ResponderHooks{}};
};

TEST_F(MadRequestTest, AnswersAGmpReadInPlace) {
  Mad m = request(mad::kClassVendorA, mad::kMethodGet, mad::kAttrCrAccessGmp, mad::cr_attr_mod_mode0(0xf0010, 2));
  const auto a = handler_.handle(m);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->status, 0);
  EXPECT_EQ(a->mgmt_class, mad::kClassVendorA);
  EXPECT_EQ(m[mad::kOffMethod], mad::kMethodGet | mad::kResponseBit);
  EXPECT_EQ(mad::get64(m.data(), mad::kOffTid), 0x55u);
  EXPECT_EQ(mad::get32(m.data(), 32), MemoryCrSpace::pattern_value(0xf0010));
  EXPECT_EQ(mad::get32(m.data(), 36), 0x209u);
}

TEST_F(MadRequestTest, CountsPastThePayloadGetInvalidValue) {
  // 63 dwords do not fit the 56 a GMP carries, 5 mode-2 records not the 4 of an SMP.
  Mad gmp = request(mad::kClassVendorA, mad::kMethodGet, mad::kAttrCrAccessGmp, mad::cr_attr_mod_mode0(0, 63));
  EXPECT_EQ(handler_.handle(gmp)->status, mad::kStatusInvalidValue);
  Mad smp = request(mad::kClassSmpLid, mad::kMethodSet, mad::kAttrCrAccessSmp, mad::cr_attr_mod_mode2(5));
  EXPECT_EQ(handler_.handle(smp)->status, mad::kStatusInvalidValue);
  Mad mode1 = request(mad::kClassVendorA, mad::kMethodGet, mad::kAttrCrAccessGmp, 1u << 22);
  EXPECT_EQ(handler_.handle(mode1)->status, mad::kStatusInvalidValue);
  Mad outside = request(mad::kClassVendorA, mad::kMethodGet, mad::kAttrCrAccessGmp, mad::cr_attr_mod_mode0(0xff0000, 1));
  EXPECT_EQ(handler_.handle(outside)->status, mad::kStatusInvalidValue);  // past the 1 MiB CR-space
}

TEST_F(MadRequestTest, NoAnswerForResponsesTrapsAndShortBuffers) {
  Mad response = request(mad::kClassVendorA, mad::kMethodGet | mad::kResponseBit, mad::kAttrCrAccessGmp, 0);
  EXPECT_FALSE(handler_.handle(response).has_value());
  Mad trap = request(mad::kClassVendorA, 0x05, mad::kAttrCrAccessGmp, 0);
  EXPECT_FALSE(handler_.handle(trap).has_value());
  Mad read = request(mad::kClassVendorA, mad::kMethodGet, mad::kAttrCrAccessGmp, mad::cr_attr_mod_mode0(0, 1));
  EXPECT_FALSE(handler_.handle(std::span(read).first(100)).has_value());
}

TEST_F(MadRequestTest, DirectedRouteAnswerSetsTheDirectionBit) {
  Mad m = request(mad::kClassSmpDirected, mad::kMethodGet, mad::kAttrCrAccessSmp, mad::cr_attr_mod_mode0(0xf0014, 1));
  m[mad::kOffHopPointer] = 1;
  ASSERT_TRUE(handler_.handle(m).has_value());
  EXPECT_EQ(mad::get16(m.data(), mad::kOffStatus), 0x8000);
  EXPECT_EQ(m[mad::kOffHopPointer], 0);
  EXPECT_EQ(mad::get32(m.data(), 72), 0x209u);
  // Without hooks, register access and reset are unsupported.
  Mad reg = request(mad::kClassSmpLid, mad::kMethodGet, mad::kAttrRegAccessSmp, 0);
  EXPECT_EQ(handler_.handle(reg)->status, mad::kStatusAttrUnsupported);
  Mad reset = request(mad::kClassVendorA, mad::kMethodSet, mad::kAttrSwReset, 1);
  EXPECT_EQ(handler_.handle(reset)->status, mad::kStatusAttrUnsupported);
}

}  // namespace
}  // namespace openflint
