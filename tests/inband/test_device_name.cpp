// Tests: parsing of in-band device names and the ConfigSpaceAccess AttrMod layout.
#include <gtest/gtest.h>

#include "mtcr/inband/InbandDeviceName.h"
#include "mtcr/inband/MadFormat.h"

namespace openflint {
namespace {

TEST(InbandDeviceName, ParsesLidForms) {
  auto a = parse_inband_device_name("lid-3");
  ASSERT_TRUE(a) << a.error().message();
  EXPECT_EQ(a->route, InbandDeviceName::Route::VendorGmp);
  EXPECT_EQ(a->lid, 3);
  EXPECT_TRUE(a->ca.empty());
  EXPECT_EQ(a->port, 0);

  auto b = parse_inband_device_name("lid-0x1f,mlx5_0,2");
  ASSERT_TRUE(b) << b.error().message();
  EXPECT_EQ(b->lid, 0x1f);
  EXPECT_EQ(b->ca, "mlx5_0");
  EXPECT_EQ(b->port, 2);
  EXPECT_EQ(b->to_string(), "lid-31,mlx5_0,2");

  auto c = parse_inband_device_name("iblid-7");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->route, InbandDeviceName::Route::SmpLid);
  EXPECT_EQ(c->lid, 7);
}

TEST(InbandDeviceName, ParsesDirectedRoute) {
  auto d = parse_inband_device_name("ibdr-0.1.2");
  ASSERT_TRUE(d) << d.error().message();
  EXPECT_EQ(d->route, InbandDeviceName::Route::SmpDirected);
  EXPECT_EQ(d->path, (std::vector<std::uint8_t>{0, 1, 2}));
  EXPECT_EQ(d->hop_count(), 2u);
  EXPECT_EQ(d->to_string(), "ibdr-0.1.2");
  auto e = parse_inband_device_name("ibdr-0,mlx4_0,1");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->hop_count(), 0u);
  EXPECT_EQ(e->ca, "mlx4_0");
}

TEST(InbandDeviceName, RejectsMalformedNames) {
  for (const char* bad : {"lid-", "lid-x", "lid-0", "lid-0xc000", "lid-3,", "lid-3,ca,", "lid-3,ca,999",
                          "iblid--1", "ibdr-", "ibdr-0..1", "ibdr-0.256", "mt4099_pci_cr0", "lid-3x"}) {
    auto r = parse_inband_device_name(bad);
    EXPECT_FALSE(r) << bad;
    if (!r) {
      EXPECT_EQ(r.error().code(), ErrorCode::InvalidArgument) << bad;
      EXPECT_FALSE(r.error().message().empty());
    }
  }
  EXPECT_TRUE(is_inband_device_name("ibdr-0.1"));
  EXPECT_FALSE(is_inband_device_name("/dev/mst/mt4099_pci_cr0"));
}

TEST(InbandDeviceName, RejectsTooLongRoute) {
  std::string name = "ibdr-0";
  for (int i = 0; i < 64; ++i) name += ".1";
  auto r = parse_inband_device_name(name);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("63 hops"), std::string::npos);
}

TEST(MadFormat, AttrModLayout) {
  // [15:0] address low, [21:16] count, [23:22] mode, [31:24] address bits 23:16.
  EXPECT_EQ(mad::cr_attr_mod_mode0(0xf0014, 1), 0x0f010014u);
  EXPECT_EQ(mad::cr_attr_mod_mode0(0x7ffff0, 56), 0x7f38fff0u);
  EXPECT_EQ(mad::attr_mod_address(0x0f010014u), 0xf0014u);
  EXPECT_EQ(mad::attr_mod_count(0x7f38fff0u), 56u);
  EXPECT_EQ(mad::attr_mod_mode(mad::cr_attr_mod_mode2(18)), 2u);
  EXPECT_EQ(mad::cr_attr_mod_mode2(1), 0x00810000u);
  EXPECT_FALSE(mad::needs_mode2(0x7ffff8, 1));
  EXPECT_TRUE(mad::needs_mode2(0x7ffffc, 1));
  EXPECT_EQ(mad::kGmpCrDwords, 56u);
  EXPECT_EQ(mad::kSmpCrDwords, 14u);
  EXPECT_NE(mad::describe_status(0x0c).find("unsupported"), std::string::npos);
}

}  // namespace
}  // namespace openflint
