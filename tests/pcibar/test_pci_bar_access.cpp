// PciBarAccess over plain files: sizing from `resource`, hw id checks, byte order, bounds, errors.
#include <gtest/gtest.h>

#include <unistd.h>

#include <array>

#include "mtcr/pci/PciBarAccess.h"
#include "tests/pcibar/BarTree.h"

namespace openflint {
namespace {

using test::BarTree;

constexpr std::uint64_t kSize = 0x100000;  // 1 MiB: holds the hw id at 0xf0014

PciBarAccess open_ok(const BarTree& tree) {
  auto bar = PciBarAccess::open(tree.device_dir());
  EXPECT_TRUE(bar.has_value()) << bar.error().message();
  return std::move(bar).value();
}

void expect_error(const BarTree& tree, ErrorCode code, const std::string& needle) {
  auto bar = PciBarAccess::open(tree.device_dir());
  ASSERT_FALSE(bar.has_value());
  EXPECT_EQ(bar.error().code(), code) << bar.error().message();
  EXPECT_NE(bar.error().message().find(needle), std::string::npos) << bar.error().message();
}

TEST(PciBarAccess, ReadsHwIdAndConvertsBigEndian) {
  BarTree tree;
  tree.write_resource(kSize);
  tree.make_plain_bar(kSize, 0x00a00209);
  tree.poke(0x100, 0x11223344);
  PciBarAccess bar = open_ok(tree);
  EXPECT_EQ(bar.hw_id_word(), 0x00a00209u);
  EXPECT_EQ(bar.bar_size(), kSize);
  EXPECT_EQ(*bar.read32(0x100), 0x11223344u);

  ASSERT_TRUE(bar.write32(0x200, 0xa1b2c3d4).has_value());
  const auto bytes = test::read_file(tree.resource0());  // MAP_SHARED: the file sees the store
  EXPECT_EQ(bytes[0x200], 0xa1);
  EXPECT_EQ(bytes[0x203], 0xd4);

  const std::array<std::uint32_t, 3> out{1, 2, 3};
  ASSERT_TRUE(bar.write_block(kSize - 12, out).has_value());  // the last three dwords
  std::array<std::uint32_t, 3> in{};
  ASSERT_TRUE(bar.read_block(kSize - 12, in).has_value());
  EXPECT_EQ(in, out);
  EXPECT_GE(bar.max_block_dwords(), 64u);
  EXPECT_FALSE(bar.costly_access());
}

TEST(PciBarAccess, OutOfRangeAndUnalignedAreErrorsNotSignals) {
  BarTree tree;
  tree.write_resource(kSize);
  tree.make_plain_bar(kSize, 0x209);
  PciBarAccess bar = open_ok(tree);
  EXPECT_TRUE(bar.read32(kSize - 4).has_value());
  for (std::uint32_t address : {std::uint32_t{kSize}, std::uint32_t{0xfffffffc}}) {
    auto r = bar.read32(address);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(r.error().message().find("outside the 0x100000-byte BAR"), std::string::npos) << r.error().message();
    EXPECT_FALSE(bar.write32(address, 0).has_value());
  }
  std::array<std::uint32_t, 2> two{};
  EXPECT_EQ(bar.read_block(kSize - 4, two).error().code(), ErrorCode::InvalidArgument);  // straddles the end
  EXPECT_EQ(bar.write_block(kSize - 4, two).error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(bar.read32(0x102).error().code(), ErrorCode::InvalidArgument);
}

TEST(PciBarAccess, UnusableBarFallsBackToConfigSpace) {
  for (std::uint32_t hw_id : {0xffffffffu, 0xbadacce5u}) {
    BarTree tree;
    tree.write_resource(kSize);
    tree.make_plain_bar(kSize, hw_id);
    expect_error(tree, ErrorCode::NotSupported, "BAR is unusable (hw id reads " + hex_string(hw_id) + ")");
  }
}

TEST(PciBarAccess, SecureModeHostIsRestricted) {
  BarTree tree;
  tree.write_resource(kSize);
  tree.make_plain_bar(kSize, 0xbad0cafe);
  expect_error(tree, ErrorCode::PermissionDenied, "host is restricted (secure mode");
}

TEST(PciBarAccess, MissingOrUnmappableFilesAreClearErrors) {
  BarTree tree;
  expect_error(tree, ErrorCode::NotFound, "cannot read");  // no resource file
  tree.write_resource(kSize);
  expect_error(tree, ErrorCode::NotFound, "opening " + tree.resource0().string());
  tree.make_plain_bar(kSize / 2, 0x209);  // shorter than resource says: mapping it all would SIGBUS
  expect_error(tree, ErrorCode::Io, "less than the BAR size 0x100000");
  tree.write_resource(0x10000);  // maps, but has no room for the hw id at 0xf0014
  expect_error(tree, ErrorCode::InvalidArgument, "reading the hw id");
}

TEST(PciBarAccess, ResourceFileIsValidated) {
  BarTree tree;
  tree.make_plain_bar(kSize, 0x209);
  tree.write_resource_text("garbage\n");
  expect_error(tree, ErrorCode::InvalidArgument, "is not \"start end flags\"");
  tree.write_resource_text("0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
  expect_error(tree, ErrorCode::NotFound, "BAR0 is not assigned");
  tree.write_resource(kSize, 0x101);  // IORESOURCE_IO
  expect_error(tree, ErrorCode::NotSupported, "I/O-port BAR");
  tree.write_resource(kSize);
  EXPECT_TRUE(PciBarAccess::open(tree.device_dir()).has_value());
}

TEST(PciBarAccess, MovedFromKeepsOneMapping) {
  BarTree tree;
  tree.write_resource(kSize);
  tree.make_plain_bar(kSize, 0x20b);
  PciBarAccess a = open_ok(tree);
  PciBarAccess b = std::move(a);
  EXPECT_EQ(*b.read32(0xf0014), 0x20bu);
  a = std::move(b);
  EXPECT_EQ(*a.read32(0xf0014), 0x20bu);
}

}  // namespace
}  // namespace openflint
