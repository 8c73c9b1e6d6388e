// MfaArchive extraction: one streaming pass over the DATA section, copying wanted ranges out.
#include <algorithm>
#include <optional>
#include <utility>

#include "core/HexString.h"
#include "core/OutputFile.h"
#include "image/MfaArchive.h"
#include "image/XzStream.h"

namespace openflint {
namespace {

// One requested range of the unpacked DATA stream and who receives it.
struct Wanted {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::size_t sink = 0;
  std::string psid;
};

// Hands the part of `chunk` (which starts at DATA offset `pos`) that each range wants to
// its sink.
Result<void> deliver(const std::vector<Wanted>& wanted, const std::vector<MfaArchive::Sink>& sinks,
                     std::uint64_t pos, Bytes chunk) {
  const std::uint64_t chunk_end = pos + chunk.size();
  for (const auto& w : wanted) {
    const std::uint64_t from = std::max(w.begin, pos);
    const std::uint64_t to = std::min(w.end, chunk_end);
    if (from >= to) continue;
    OF_TRY_CTX(sinks[w.sink](chunk.subspan(from - pos, to - from)), "board " + w.psid);
  }
  return {};
}

// When the wanted bytes reach the end of DATA, drives the decoder to the end of the stream
// so that the xz integrity check (verified after the last byte) is not skipped.
Result<void> finish_stream(XzStream& xz) {
  std::uint8_t extra = 0;
  OF_ASSIGN(const std::size_t n, xz.read(std::span(&extra, 1)));
  if (n != 0 || !xz.finished())
    return make_error(ErrorCode::InvalidImage, "the stream is longer than its index says");
  return {};
}

// Decodes (or copies) DATA — [offset, offset + size) of `file` — from its start up to `stop`,
// handing wanted ranges to their sinks; reads the file kInputChunk (xz) or kChunkSize at a time.
Result<void> stream_data(const ByteSource& file, std::uint64_t offset, std::uint64_t size, bool is_xz, std::uint64_t unpacked_size,
                         const std::vector<Wanted>& wanted,
                         const std::vector<MfaArchive::Sink>& sinks, std::uint64_t stop,
                         const MfaArchive::Progress& progress) {
  constexpr std::size_t kChunkSize = MfaArchive::kChunkSize;
  std::optional<XzStream> xz;
  if (is_xz) {
    OF_ASSIGN(XzStream decoder, XzStream::decoder(file, offset, size));
    xz.emplace(std::move(decoder));
  }
  std::vector<std::uint8_t> buffer(static_cast<std::size_t>(std::min<std::uint64_t>(kChunkSize, stop)));
  std::uint64_t pos = 0;
  if (progress) progress(0, stop);
  while (pos < stop) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(kChunkSize, stop - pos));
    Bytes chunk;
    if (xz) {
      OF_ASSIGN(const std::size_t n, xz->read(std::span(buffer).first(want)));
      if (n == 0)
        return make_error(ErrorCode::InvalidImage, "the stream ends at " + hex_string(pos) +
                                                       ", before the wanted end " + hex_string(stop));
      chunk = Bytes(buffer).first(n);
    } else {
      if (pos + want > size)
        return make_error(ErrorCode::InvalidImage, "wanted end " + hex_string(stop) + " is past the section");
      OF_TRY(file.read(offset + pos, std::span(buffer).first(want)));
      chunk = Bytes(buffer).first(want);
    }
    OF_TRY(deliver(wanted, sinks, pos, chunk));
    pos += chunk.size();
    if (progress) progress(pos, stop);
  }
  if (xz && stop == unpacked_size && stop > 0) OF_TRY(finish_stream(*xz));
  return {};
}

}  // namespace

Result<void> MfaArchive::extract(const MfaBoard& board, const Sink& sink,
                                 const Progress& progress) const {
  return extract_many({&board}, {sink}, progress);
}

Result<void> MfaArchive::extract_many(const std::vector<const MfaBoard*>& boards,
                                      const std::vector<Sink>& sinks,
                                      const Progress& progress) const {
  if (boards.size() != sinks.size())
    return make_error(ErrorCode::InvalidArgument,
                      std::to_string(boards.size()) + " boards but " + std::to_string(sinks.size()) + " sinks");
  std::vector<Wanted> wanted;
  std::uint64_t stop = 0;  // DATA offset just past the last wanted byte
  for (std::size_t i = 0; i < boards.size(); ++i) {
    if (boards[i] == nullptr || !sinks[i])
      return make_error(ErrorCode::InvalidArgument, "extract: null board or sink at " + std::to_string(i));
    const MfaImageRef* fw = boards[i]->firmware();
    if (fw == nullptr)
      return make_error(ErrorCode::NotFound, "board " + boards[i]->psid + " has no firmware image");
    if (fw->data_offset > data_unpacked_size_ || fw->data_size > data_unpacked_size_ - fw->data_offset)
      return make_error(ErrorCode::InvalidArgument,
                        "board " + boards[i]->psid + ": image range is past the end of DATA");
    wanted.push_back({fw->data_offset, fw->data_offset + fw->data_size, i, boards[i]->psid});
    if (fw->data_size > 0) stop = std::max(stop, fw->data_offset + fw->data_size);
  }
  OF_TRY_CTX(stream_data(*source_, data_offset_, data_size_, data_xz_, data_unpacked_size_, wanted, sinks, stop,
                         progress),
             "extracting from DATA");
  return {};
}

Result<void> MfaArchive::extract_to_file(const MfaBoard& board, const std::string& path,
                                         const Progress& progress) const {
  // Never replaces a device node, FIFO or link; the temp file goes on error and on SIGINT/SIGTERM.
  OF_ASSIGN(OutputFile file, OutputFile::create(path, "output"));
  OF_TRY(extract(board, [&file](Bytes chunk) { return file.write(chunk); }, progress));
  return file.commit();
}

}  // namespace openflint
