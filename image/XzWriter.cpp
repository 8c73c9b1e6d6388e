// XzWriter: liblzma's stream encoder fed piece by piece, its output handed on in 64 KiB pieces.
#include "image/XzWriter.h"

#include <algorithm>
#include <array>
#include <string>

namespace openflint {
namespace {
constexpr std::size_t kOutChunk = std::size_t{64} << 10;
}  // namespace

void XzWriter::StreamDeleter::operator()(lzma_stream* stream) const {
  lzma_end(stream);
  delete stream;
}

Result<XzWriter> XzWriter::create(Sink sink, std::uint32_t preset, std::uint64_t expected_size) {
  lzma_options_lzma options;
  if (preset > 9 || lzma_lzma_preset(&options, preset))
    return make_error(ErrorCode::InvalidArgument, "xz preset " + std::to_string(preset) + " is not 0..9");
  if (expected_size != 0)  // no point in a dictionary larger than the input (liblzma's minimum: 4 KiB)
    options.dict_size = static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>(expected_size, LZMA_DICT_SIZE_MIN, options.dict_size));
  const lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
  std::unique_ptr<lzma_stream, StreamDeleter> stream(new lzma_stream());  // value-initialised == LZMA_STREAM_INIT
  const lzma_ret ret = lzma_stream_encoder(stream.get(), filters, LZMA_CHECK_CRC32);
  if (ret != LZMA_OK)
    return make_error(ErrorCode::Internal, "cannot start the xz encoder (liblzma error " + std::to_string(ret) + ")");
  return XzWriter(std::move(stream), std::move(sink));
}

Result<void> XzWriter::run(lzma_action action) {
  std::array<std::uint8_t, kOutChunk> out;
  for (;;) {
    stream_->next_out = out.data();
    stream_->avail_out = out.size();
    const lzma_ret ret = lzma_code(stream_.get(), action);
    if (ret != LZMA_OK && ret != LZMA_STREAM_END)
      return make_error(ErrorCode::Internal, "xz encoder failed (liblzma error " + std::to_string(ret) + ")");
    const std::size_t produced = out.size() - stream_->avail_out;
    if (produced > 0) OF_TRY(sink_(Bytes(out.data(), produced)));
    if (ret == LZMA_STREAM_END) return {};
    // LZMA_RUN: done when the input is taken and the output buffer was not filled.
    if (action == LZMA_RUN && stream_->avail_in == 0 && stream_->avail_out != 0) return {};
  }
}

Result<void> XzWriter::write(Bytes input) {
  if (finished_) return make_error(ErrorCode::Internal, "xz stream written after its end");
  stream_->next_in = input.data();
  stream_->avail_in = input.size();
  return run(LZMA_RUN);
}

Result<void> XzWriter::finish() {
  if (finished_) return make_error(ErrorCode::Internal, "xz stream ended twice");
  finished_ = true;
  stream_->next_in = nullptr;
  stream_->avail_in = 0;
  return run(LZMA_FINISH);
}

std::uint64_t XzWriter::total_in() const { return stream_->total_in; }
std::uint64_t XzWriter::total_out() const { return stream_->total_out; }

}  // namespace openflint
