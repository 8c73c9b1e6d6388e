// Md5: the RFC 1321 compression function and padding.
#include "core/Md5.h"

#include "core/HexString.h"

#include <cmath>
#include <cstring>

namespace openflint {
namespace {

// Per-round left-rotation amounts (RFC 1321 section 3.4).
constexpr std::array<std::uint32_t, 16> kShift{7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21};

// T[i] = floor(2^32 * |sin(i + 1)|) (RFC 1321 section 3.4).
std::array<std::uint32_t, 64> make_sines() {
  std::array<std::uint32_t, 64> t{};
  for (std::size_t i = 0; i < t.size(); ++i)
    t[i] = static_cast<std::uint32_t>(std::floor(std::fabs(std::sin(static_cast<double>(i + 1))) * 4294967296.0));
  return t;
}

const std::array<std::uint32_t, 64>& sines() {
  static const std::array<std::uint32_t, 64> t = make_sines();
  return t;
}

constexpr std::uint32_t rotl(std::uint32_t x, std::uint32_t n) { return (x << n) | (x >> (32 - n)); }

}  // namespace

void Md5::block(const std::uint8_t* p) {
  std::array<std::uint32_t, 16> m{};
  for (std::size_t i = 0; i < 16; ++i)  // little-endian words
    m[i] = std::uint32_t{p[4 * i]} | std::uint32_t{p[4 * i + 1]} << 8 | std::uint32_t{p[4 * i + 2]} << 16 |
           std::uint32_t{p[4 * i + 3]} << 24;
  std::uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
  for (std::uint32_t i = 0; i < 64; ++i) {
    std::uint32_t f = 0;
    std::uint32_t g = 0;
    const std::uint32_t round = i / 16;
    if (round == 0) {
      f = (b & c) | (~b & d);
      g = i;
    } else if (round == 1) {
      f = (d & b) | (~d & c);
      g = (5 * i + 1) % 16;
    } else if (round == 2) {
      f = b ^ c ^ d;
      g = (3 * i + 5) % 16;
    } else {
      f = c ^ (b | ~d);
      g = (7 * i) % 16;
    }
    const std::uint32_t next = b + rotl(a + f + sines()[i] + m[g], kShift[round * 4 + i % 4]);
    a = d;
    d = c;
    c = b;
    b = next;
  }
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
}

void Md5::update(Bytes data) {
  total_ += data.size();
  std::size_t at = 0;
  if (pending_size_ > 0) {
    const std::size_t take = std::min(data.size(), pending_.size() - pending_size_);
    std::memcpy(pending_.data() + pending_size_, data.data(), take);
    pending_size_ += take;
    at = take;
    if (pending_size_ < pending_.size()) return;
    block(pending_.data());
    pending_size_ = 0;
  }
  for (; at + 64 <= data.size(); at += 64) block(data.data() + at);
  if (at < data.size()) {
    std::memcpy(pending_.data(), data.data() + at, data.size() - at);
    pending_size_ = data.size() - at;
  }
}

Md5::Digest Md5::finish() const {
  Md5 copy = *this;
  const std::uint64_t bits = total_ * 8;
  std::array<std::uint8_t, 72> pad{};
  pad[0] = 0x80;
  const std::size_t pad_len = (pending_size_ < 56 ? 56 : 120) - pending_size_;
  for (int i = 0; i < 8; ++i) pad[pad_len + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(bits >> (8 * i));
  copy.update(Bytes(pad.data(), pad_len + 8));
  Digest out{};
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) out[4 * i + j] = static_cast<std::uint8_t>(copy.state_[i] >> (8 * j));
  return out;
}

std::string Md5::to_hex(const Digest& digest) {
  return hex_digits(digest);
}

}  // namespace openflint
