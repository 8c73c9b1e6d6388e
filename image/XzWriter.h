// XzWriter: a push-style .xz encoder: bytes go in piece by piece, compressed bytes come out to a sink.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include <lzma.h>

#include "core/ByteReader.h"
#include "core/Result.h"

namespace openflint {

// One .xz stream (LZMA2, CRC32 check, what the kernel's decoder verifies) written as the input
// arrives, so a package of many images is compressed without holding them: memory is the
// encoder's state (preset 6: about 94 MiB) plus one output buffer.
class XzWriter {
 public:
  using Sink = std::function<Result<void>(Bytes chunk)>;
  // `expected_size` (when known) shrinks the dictionary to the input, as xz(1) does.
  [[nodiscard]] static Result<XzWriter> create(Sink sink, std::uint32_t preset = 6, std::uint64_t expected_size = 0);

  XzWriter(XzWriter&&) noexcept = default;
  XzWriter& operator=(XzWriter&&) noexcept = default;
  XzWriter(const XzWriter&) = delete;
  XzWriter& operator=(const XzWriter&) = delete;
  ~XzWriter() = default;

  [[nodiscard]] Result<void> write(Bytes input);
  // Ends the stream (index, footer); nothing may be written after it.
  [[nodiscard]] Result<void> finish();
  [[nodiscard]] std::uint64_t total_in() const;
  [[nodiscard]] std::uint64_t total_out() const;

 private:
  struct StreamDeleter {
    void operator()(lzma_stream* stream) const;
  };
  XzWriter(std::unique_ptr<lzma_stream, StreamDeleter> stream, Sink sink)
      : stream_(std::move(stream)), sink_(std::move(sink)) {}
  [[nodiscard]] Result<void> run(lzma_action action);
  std::unique_ptr<lzma_stream, StreamDeleter> stream_;
  Sink sink_;
  bool finished_ = false;
};

}  // namespace openflint
