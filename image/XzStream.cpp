// XzStream: liblzma-backed streaming xz decoder/encoder over in-memory input.
#include "core/HexString.h"
#include "image/XzStream.h"

#include <algorithm>
#include <cstdio>
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
std::size_t XzStream::remaining_input() const { return stream_->avail_in; }

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
  // All input is present, so LZMA_FINISH throughout; liblzma reports LZMA_BUF_ERROR when it
  // can make no progress (input ended mid-stream).
  while (s.avail_out == out.size()) {
    const lzma_ret ret = lzma_code(&s, LZMA_FINISH);
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
  const Bytes rest = input.last(stream.remaining_input());
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
  // Skip stream padding (multiples of four zero bytes) at the end.
  std::size_t end = input.size();
  while (end >= 4 && end % 4 == 0 && input[end - 1] == 0 && input[end - 2] == 0 &&
         input[end - 3] == 0 && input[end - 4] == 0)
    end -= 4;
  if (end < 2 * LZMA_STREAM_HEADER_SIZE)
    return make_error(ErrorCode::InvalidImage,
                      "xz stream too short (" + std::to_string(input.size()) + " bytes)");
  lzma_stream_flags header;
  lzma_stream_flags footer;
  if (lzma_stream_header_decode(&header, input.data()) != LZMA_OK)
    return make_error(ErrorCode::InvalidImage, "bad xz stream header");
  if (lzma_stream_footer_decode(&footer, input.data() + end - LZMA_STREAM_HEADER_SIZE) != LZMA_OK)
    return make_error(ErrorCode::InvalidImage, "bad xz stream footer at " + hex_string(end - 12));
  if (lzma_stream_flags_compare(&header, &footer) != LZMA_OK)
    return make_error(ErrorCode::InvalidImage, "xz stream header and footer disagree");
  if (footer.backward_size > end - 2 * LZMA_STREAM_HEADER_SIZE)
    return make_error(ErrorCode::InvalidImage, "xz index size " + hex_string(footer.backward_size) +
                                                   " exceeds the stream");
  const std::size_t index_at = end - LZMA_STREAM_HEADER_SIZE - footer.backward_size;
  lzma_index* raw = nullptr;
  std::uint64_t memlimit = std::uint64_t{64} << 20;
  std::size_t pos = index_at;
  const lzma_ret ret = lzma_index_buffer_decode(&raw, &memlimit, nullptr, input.data(), &pos,
                                                end - LZMA_STREAM_HEADER_SIZE);
  std::unique_ptr<lzma_index, IndexDeleter> index(raw);
  if (ret != LZMA_OK || pos != end - LZMA_STREAM_HEADER_SIZE)
    return make_error(ErrorCode::InvalidImage, "bad xz index at " + hex_string(index_at));
  if (lzma_index_stream_size(index.get()) != end)
    return make_error(ErrorCode::InvalidImage,
                      "xz index describes " + std::to_string(lzma_index_stream_size(index.get())) +
                          " bytes, the stream has " + std::to_string(end) +
                          " (concatenated streams are not supported)");
  return std::uint64_t{lzma_index_uncompressed_size(index.get())};
}

}  // namespace openflint
