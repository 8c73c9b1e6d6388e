// Tests for Md5: the RFC 1321 test suite, incremental updates across block boundaries, and a
// digest that stays open after finish().
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "core/Md5.h"

namespace openflint {
namespace {

// The digest so far in hex, or the error's message (which no digest equals).
std::string hex_of(const Md5& md5) {
  const auto digest = md5.finish();
  return digest ? Md5::to_hex(*digest) : "error: " + digest.error().message();
}

std::string md5_of(const std::string& text) {
  Md5 md5;
  md5.update(Bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  return hex_of(md5);
}

TEST(Md5, Rfc1321TestSuite) {
  const std::pair<std::string, std::string> cases[] = {
      {"", "d41d8cd98f00b204e9800998ecf8427e"},
      {"a", "0cc175b9c0f1b6a831c399e269772661"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72"},
      {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
      {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
      {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
       "57edf4a22be3c955ac49da2e2107b67a"},
  };
  for (const auto& [text, digest] : cases) EXPECT_EQ(md5_of(text), digest) << '"' << text << '"';
}

TEST(Md5, PiecewiseUpdatesEqualOneUpdate) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += static_cast<char>('a' + i % 26);
  for (std::size_t piece : {1u, 7u, 55u, 56u, 63u, 64u, 65u, 300u}) {
    Md5 md5;
    for (std::size_t at = 0; at < text.size(); at += piece) {
      const std::size_t n = std::min(piece, text.size() - at);
      md5.update(Bytes(reinterpret_cast<const std::uint8_t*>(text.data() + at), n));
    }
    EXPECT_EQ(hex_of(md5), md5_of(text)) << "pieces of " << piece;
  }
}

TEST(Md5, FinishLeavesTheDigestOpen) {
  Md5 md5;
  md5.update(Bytes(reinterpret_cast<const std::uint8_t*>("message "), 8));
  EXPECT_EQ(hex_of(md5), md5_of("message "));
  md5.update(Bytes(reinterpret_cast<const std::uint8_t*>("digest"), 6));
  EXPECT_EQ(hex_of(md5), "f96b697d7cb7938d525a2f31aaf161d0");
}

}  // namespace
}  // namespace openflint
