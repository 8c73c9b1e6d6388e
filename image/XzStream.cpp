// XzStream: liblzma-backed streaming xz decoder/encoder over in-memory input.
#include "core/HexString.h"
#include "core/MemorySource.h"
#include "image/XzStream.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

namespace openflint {
namespace {

struct IndexDeleter {
  void operator()(lzma_index* index) const { lzma_index_end(index, nullptr); }
};

}  // namespace

void XzStream::StreamDeleter::operator()(lzma_stream* stream) const {
  lzma_end(stream);
  delete stream;
}

Result<XzStream> XzStream::decoder(Bytes input, std::uint64_t memlimit) {
  StreamPtr stream(new lzma_stream());  // value-initialised == LZMA_STREAM_INIT
  const lzma_ret ret = lzma_stream_decoder(stream.get(), memlimit, 0);
  if (ret != LZMA_OK)
    return make_error(ErrorCode::Internal, "cannot start xz decoder (liblzma error " +
                                               std::to_string(static_cast<int>(ret)) + ")");
  stream->next_in = input.data();
  stream->avail_in = input.size();
  return XzStream(std::move(stream), true);
}

Result<XzStream> XzStream::decoder(const ByteSource& source, std::uint64_t offset, std::uint64_t size,
                                   std::uint64_t memlimit) {
  if (offset > source.size() || size > source.size() - offset)
    return make_error(ErrorCode::InvalidImage, "xz stream at " + hex_string(offset) + " + " +
                                                   std::to_string(size) + " bytes is past the end of its input");
  OF_ASSIGN(XzStream stream, decoder(Bytes{}, memlimit));
  stream.source_ = &source;
  stream.source_pos_ = offset;
  stream.source_end_ = offset + size;
  stream.input_.resize(kInputChunk);
  return stream;
}

Result<void> XzStream::refill() {
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(input_.size(), source_end_ - source_pos_));
  const std::span<std::uint8_t> piece = std::span(input_).first(n);
  OF_TRY(source_->read(source_pos_, piece));
  source_pos_ += n;
  stream_->next_in = piece.data();
  stream_->avail_in = n;
  return {};
}

Result<XzStream> XzStream::encoder(Bytes input, std::uint32_t preset) {
  lzma_options_lzma options;
  if (preset > 9 || lzma_lzma_preset(&options, preset))
    return make_error(ErrorCode::InvalidArgument, "xz preset " + std::to_string(preset) +
                                                      " is not in 0..9");
  // Like xz(1): no point in a dictionary larger than the input.
  const std::uint64_t wanted = std::max<std::uint64_t>(input.size(), LZMA_DICT_SIZE_MIN);
  options.dict_size = static_cast<std::uint32_t>(std::min<std::uint64_t>(options.dict_size, wanted));
  const lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options},
                                 {LZMA_VLI_UNKNOWN, nullptr}};
  StreamPtr stream(new lzma_stream());  // value-initialised == LZMA_STREAM_INIT
  const lzma_ret ret = lzma_stream_encoder(stream.get(), filters, LZMA_CHECK_CRC32);
  if (ret != LZMA_OK)
    return make_error(ErrorCode::Internal, "cannot start xz encoder (liblzma error " +
                                               std::to_string(static_cast<int>(ret)) + ")");
  stream->next_in = input.data();
  stream->avail_in = input.size();
  return XzStream(std::move(stream), false);
}

std::uint64_t XzStream::total_in() const { return stream_->total_in; }
std::uint64_t XzStream::total_out() const { return stream_->total_out; }
std::uint64_t XzStream::remaining_input() const {
  return stream_->avail_in + (more_input() ? source_end_ - source_pos_ : 0);
}

Unexpected XzStream::failure(lzma_ret ret) const {
  const std::string where = " (at input offset " + hex_string(stream_->total_in) + ", output offset " +
                            hex_string(stream_->total_out) + ")";
  switch (ret) {
    case LZMA_MEM_ERROR: return make_error(ErrorCode::Internal, "xz: out of memory" + where);
    case LZMA_MEMLIMIT_ERROR:
      return make_error(ErrorCode::InvalidImage,
                        "xz stream needs " + std::to_string(lzma_memusage(stream_.get()) >> 20) +
                            " MiB to decode, more than the limit" + where);
    case LZMA_FORMAT_ERROR: return make_error(ErrorCode::InvalidImage, "not an xz stream" + where);
    case LZMA_OPTIONS_ERROR:
      return make_error(ErrorCode::NotSupported, "unsupported xz stream options" + where);
    case LZMA_DATA_ERROR: return make_error(ErrorCode::InvalidImage, "corrupt xz data" + where);
    case LZMA_BUF_ERROR: return make_error(ErrorCode::InvalidImage, "truncated xz stream" + where);
    default:
      return make_error(decoding_ ? ErrorCode::InvalidImage : ErrorCode::Internal,
                        "xz error " + std::to_string(static_cast<int>(ret)) + where);
  }
}

Result<std::size_t> XzStream::read(std::span<std::uint8_t> out) {
  if (finished_ || out.empty()) return std::size_t{0};
  lzma_stream& s = *stream_;
  s.next_out = out.data();
  s.avail_out = out.size();
  // LZMA_RUN while a source still has input to hand over, then LZMA_FINISH (liblzma wants
  // the same action and no new input once FINISH is used); it reports LZMA_BUF_ERROR when it
  // can make no progress (input ended mid-stream).
  while (s.avail_out == out.size()) {
    if (s.avail_in == 0 && more_input()) OF_TRY(refill());
    const lzma_ret ret = lzma_code(&s, more_input() ? LZMA_RUN : LZMA_FINISH);
    if (ret == LZMA_STREAM_END) {
      finished_ = true;
      break;
    }
    if (ret != LZMA_OK) return failure(ret);
  }
  return out.size() - s.avail_out;
}

Result<std::vector<std::uint8_t>> xz_decompress(Bytes input, std::uint64_t max_output) {
  OF_ASSIGN(XzStream stream, XzStream::decoder(input));
  std::vector<std::uint8_t> out;
  std::vector<std::uint8_t> chunk(64 * 1024);
  while (!stream.finished()) {
    OF_ASSIGN(const std::size_t n, stream.read(chunk));
    if (out.size() + n > max_output)
      return make_error(ErrorCode::InvalidImage,
                        "xz stream unpacks to more than " + std::to_string(max_output) + " bytes");
    out.insert(out.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(n));
  }
  // Only stream padding (zero bytes) may follow.
  const Bytes rest = input.last(static_cast<std::size_t>(stream.remaining_input()));
  if (!std::all_of(rest.begin(), rest.end(), [](std::uint8_t b) { return b == 0; }))
    return make_error(ErrorCode::InvalidImage, std::to_string(rest.size()) +
                                                   " unexpected bytes after the xz stream");
  return out;
}

Result<std::vector<std::uint8_t>> xz_compress(Bytes input, std::uint32_t preset) {
  OF_ASSIGN(XzStream stream, XzStream::encoder(input, preset));
  std::vector<std::uint8_t> out;
  std::vector<std::uint8_t> chunk(64 * 1024);
  while (!stream.finished()) {
    OF_ASSIGN(const std::size_t n, stream.read(chunk));
    out.insert(out.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(n));
  }
  return out;
}

Result<std::uint64_t> xz_uncompressed_size(Bytes input) {
  const MemorySource source(input);
  return xz_uncompressed_size(source, 0, input.size());
}

namespace {

// The end of the stream at [offset, offset + size) without its trailing stream padding
// (multiples of four zero bytes), scanning back a chunk at a time.
Result<std::uint64_t> end_without_padding(const ByteSource& source, std::uint64_t offset, std::uint64_t size) {
  std::uint64_t end = size;
  if (end % 4 != 0) return end;
  std::vector<std::uint8_t> chunk(std::min<std::uint64_t>(size, std::uint64_t{1} << 20));
  while (end >= 4) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), end));  // a multiple of 4
    OF_TRY(source.read(offset + end - n, std::span(chunk).first(n)));
    // All zero when the first four bytes are and every byte equals the one four after it
    // (memcmp: fast even in unoptimised sanitizer builds, where a byte loop over a large
    // padding would take seconds).
    const std::span<const std::uint8_t> piece = std::span(chunk).first(n);
    if (piece[0] == 0 && piece[1] == 0 && piece[2] == 0 && piece[3] == 0 &&
        std::memcmp(piece.data(), piece.data() + 4, n - 4) == 0) {
      end -= n;
      continue;
    }
    std::size_t i = n;
    while (i >= 4 && chunk[i - 1] == 0 && chunk[i - 2] == 0 && chunk[i - 3] == 0 && chunk[i - 4] == 0) i -= 4;
    end -= n - i;
    if (i > 0) break;
  }
  return end;
}

}  // namespace

Result<std::uint64_t> xz_uncompressed_size(const ByteSource& source, std::uint64_t offset, std::uint64_t size) {
  if (offset > source.size() || size > source.size() - offset)
    return make_error(ErrorCode::InvalidImage, "xz stream at " + hex_string(offset) + " + " +
                                                   std::to_string(size) + " bytes is past the end of its input");
  OF_ASSIGN(const std::uint64_t end, end_without_padding(source, offset, size));
  if (end < 2 * LZMA_STREAM_HEADER_SIZE)
    return make_error(ErrorCode::InvalidImage, "xz stream too short (" + std::to_string(size) + " bytes)");
  std::uint8_t header_bytes[LZMA_STREAM_HEADER_SIZE];
  std::uint8_t footer_bytes[LZMA_STREAM_HEADER_SIZE];
  OF_TRY(source.read(offset, header_bytes));
  OF_TRY(source.read(offset + end - LZMA_STREAM_HEADER_SIZE, footer_bytes));
  lzma_stream_flags header;
  lzma_stream_flags footer;
  if (lzma_stream_header_decode(&header, header_bytes) != LZMA_OK)
    return make_error(ErrorCode::InvalidImage, "bad xz stream header");
  if (lzma_stream_footer_decode(&footer, footer_bytes) != LZMA_OK)
    return make_error(ErrorCode::InvalidImage, "bad xz stream footer at " + hex_string(end - 12));
  if (lzma_stream_flags_compare(&header, &footer) != LZMA_OK)
    return make_error(ErrorCode::InvalidImage, "xz stream header and footer disagree");
  if (footer.backward_size > end - 2 * LZMA_STREAM_HEADER_SIZE)
    return make_error(ErrorCode::InvalidImage, "xz index size " + hex_string(footer.backward_size) +
                                                   " exceeds the stream");
  if (footer.backward_size > kMaxXzIndexSize)
    return make_error(ErrorCode::InvalidImage, "xz index of " + std::to_string(footer.backward_size) +
                                                   " bytes is more than the " + std::to_string(kMaxXzIndexSize) +
                                                   "-byte limit");
  const std::uint64_t index_at = end - LZMA_STREAM_HEADER_SIZE - footer.backward_size;
  OF_ASSIGN(const std::vector<std::uint8_t> index_bytes, source.read_range(offset + index_at, footer.backward_size));
  lzma_index* raw = nullptr;
  std::uint64_t memlimit = std::uint64_t{64} << 20;
  std::size_t pos = 0;
  const lzma_ret ret =
      lzma_index_buffer_decode(&raw, &memlimit, nullptr, index_bytes.data(), &pos, index_bytes.size());
  std::unique_ptr<lzma_index, IndexDeleter> index(raw);
  if (ret != LZMA_OK || pos != index_bytes.size())
    return make_error(ErrorCode::InvalidImage, "bad xz index at " + hex_string(index_at));
  if (lzma_index_stream_size(index.get()) != end)
    return make_error(ErrorCode::InvalidImage,
                      "xz index describes " + std::to_string(lzma_index_stream_size(index.get())) +
                          " bytes, the stream has " + std::to_string(end) +
                          " (concatenated streams are not supported)");
  return std::uint64_t{lzma_index_uncompressed_size(index.get())};
}

}  // namespace openflint
