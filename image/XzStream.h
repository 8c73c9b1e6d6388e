// XzStream: RAII liblzma stream that decodes or encodes an .xz stream piece by piece (input in memory or read from a ByteSource).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <lzma.h>

#include "core/ByteReader.h"
#include "core/ByteSource.h"
#include "core/Result.h"

namespace openflint {

// A pull-style transformer over an input buffer that the caller keeps alive: each read() fills
// (part of) the caller's output buffer, so memory stays bounded by the codec's own state
// (for decoding: the dictionary, e.g. 32 MiB) plus the caller's buffer.
class XzStream {
 public:
  // Decoders refuse streams whose dictionary would need more memory than this (InvalidImage).
  // Every real MFA archive uses a 32 MiB dictionary (xz -8/-9 use 32/64 MiB); a larger one
  // would be touched as output is produced and push a tool past the 256 MiB memory bound.
  static constexpr std::uint64_t kDefaultMemLimit = std::uint64_t{80} << 20;

  // Decodes exactly one .xz stream (no concatenated streams).
  [[nodiscard]] static Result<XzStream> decoder(Bytes input,
                                                std::uint64_t memlimit = kDefaultMemLimit);
  // Decodes one .xz stream stored at [offset, offset + size) of `source`, reading it in
  // kInputChunk pieces; `source` must outlive the stream.
  [[nodiscard]] static Result<XzStream> decoder(const ByteSource& source, std::uint64_t offset,
                                                std::uint64_t size,
                                                std::uint64_t memlimit = kDefaultMemLimit);
  static constexpr std::size_t kInputChunk = std::size_t{64} << 10;
  // Encodes `input` as one .xz stream (CRC32 check, LZMA2 at `preset` 0..9, with the
  // dictionary shrunk to the input size so small inputs decode with little memory).
  [[nodiscard]] static Result<XzStream> encoder(Bytes input, std::uint32_t preset = 6);

  XzStream(XzStream&&) noexcept = default;
  XzStream& operator=(XzStream&&) noexcept = default;
  XzStream(const XzStream&) = delete;
  XzStream& operator=(const XzStream&) = delete;
  ~XzStream() = default;

  // Produces the next bytes into `out`; returns how many. Returns 0 only once finished()
  // (or when `out` is empty). A truncated or corrupt stream gives InvalidImage.
  [[nodiscard]] Result<std::size_t> read(std::span<std::uint8_t> out);
  [[nodiscard]] bool finished() const { return finished_; }
  [[nodiscard]] std::uint64_t total_in() const;
  [[nodiscard]] std::uint64_t total_out() const;
  // Input bytes not consumed (after finished(): bytes following the stream).
  [[nodiscard]] std::uint64_t remaining_input() const;

 private:
  struct StreamDeleter {
    void operator()(lzma_stream* stream) const;
  };
  using StreamPtr = std::unique_ptr<lzma_stream, StreamDeleter>;
  XzStream(StreamPtr stream, bool decoding) : stream_(std::move(stream)), decoding_(decoding) {}
  [[nodiscard]] Unexpected failure(lzma_ret ret) const;
  [[nodiscard]] Result<void> refill();  // next piece of a source's range into input_
  [[nodiscard]] bool more_input() const { return source_ != nullptr && source_pos_ < source_end_; }
  StreamPtr stream_;  // heap-allocated: liblzma state never moves
  // Source mode: the range still to be read, and the buffer next_in points into (its heap
  // storage does not move when the XzStream does).
  const ByteSource* source_ = nullptr;
  std::uint64_t source_pos_ = 0;
  std::uint64_t source_end_ = 0;
  std::vector<std::uint8_t> input_;

  bool decoding_ = true;
  bool finished_ = false;
};

// Decodes a whole single .xz stream; fails when it unpacks to more than `max_output` bytes
// or is followed by anything but stream padding.
[[nodiscard]] Result<std::vector<std::uint8_t>> xz_decompress(Bytes input,
                                                              std::uint64_t max_output);
[[nodiscard]] Result<std::vector<std::uint8_t>> xz_compress(Bytes input,
                                                            std::uint32_t preset = 6);
// The unpacked size of a single .xz stream, read from its index (nothing is decoded).
[[nodiscard]] Result<std::uint64_t> xz_uncompressed_size(Bytes input);
// The same for a stream at [offset, offset + size) of `source`: reads only the stream header,
// the trailing padding, the footer and the index (at most kMaxXzIndexSize bytes).
[[nodiscard]] Result<std::uint64_t> xz_uncompressed_size(const ByteSource& source, std::uint64_t offset,
                                                         std::uint64_t size);
inline constexpr std::uint64_t kMaxXzIndexSize = std::uint64_t{16} << 20;

}  // namespace openflint
