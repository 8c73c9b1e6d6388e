// Mfa2Package extraction: decode the component block from its start to the end of one component.
#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "core/HexString.h"
#include "core/OutputFile.h"
#include "image/Mfa2Format.h"
#include "image/Mfa2Package.h"
#include "image/XzStream.h"

namespace openflint {

Result<void> Mfa2Package::extract(const Mfa2Component& component, const Sink& sink) const {
  const std::uint64_t begin = component.cb_offset;
  const std::uint64_t stop = begin + mfa2::kComponentMagicSize + component.size;
  if (begin > cb_unpacked_size_ || stop > cb_unpacked_size_)
    return make_error(ErrorCode::InvalidArgument, "component range is past the end of the component block");
  std::optional<XzStream> xz;
  if (cb_xz_) {
    OF_ASSIGN(XzStream decoder, XzStream::decoder(*source_, cb_offset_, cb_size_));
    xz.emplace(std::move(decoder));
  }
  std::vector<std::uint8_t> buffer(static_cast<std::size_t>(std::min<std::uint64_t>(kChunkSize, stop)));
  std::uint8_t magic[mfa2::kComponentMagicSize] = {};
  bool magic_checked = false;
  std::uint64_t pos = 0;
  while (pos < stop) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), stop - pos));
    std::size_t got = want;
    if (xz) {
      OF_ASSIGN(got, xz->read(std::span(buffer).first(want)));
      if (got == 0)
        return make_error(ErrorCode::InvalidImage, "the component block ends at " + hex_string(pos) +
                                                       ", before the component's end " + hex_string(stop));
    } else {
      OF_TRY(source_->read(cb_offset_ + pos, std::span(buffer).first(want)));
    }
    const Bytes chunk = Bytes(buffer).first(got);
    // The magic's bytes, then the component's.
    for (std::uint64_t i = std::max(pos, begin); i < std::min(pos + got, begin + mfa2::kComponentMagicSize); ++i)
      magic[i - begin] = chunk[i - pos];
    const std::uint64_t data_from = std::max(pos, begin + mfa2::kComponentMagicSize);
    const std::uint64_t data_to = pos + got;
    if (!magic_checked && data_to >= begin + mfa2::kComponentMagicSize) {
      if (std::memcmp(magic, mfa2::kComponentMagic, mfa2::kComponentMagicSize) != 0)
        return make_error(ErrorCode::InvalidImage, "the component at CB offset " + hex_string(begin) +
                                                       " does not start with #BIN.COMPONENT!#");
      magic_checked = true;
    }
    if (data_from < data_to) OF_TRY(sink(chunk.subspan(data_from - pos, data_to - data_from)));
    pos += got;
  }
  // A component that ends the block: run the decoder to the stream's end so its check is verified.
  if (xz && stop == cb_unpacked_size_) {
    std::uint8_t extra = 0;
    OF_ASSIGN(const std::size_t n, xz->read(std::span(&extra, 1)));
    if (n != 0 || !xz->finished())
      return make_error(ErrorCode::InvalidImage, "the component block is longer than its index says");
  }
  return {};
}

Result<void> Mfa2Package::extract_to_file(const Mfa2Component& component, const std::string& path) const {
  OF_ASSIGN(OutputFile file, OutputFile::create(path, "output"));
  OF_TRY(extract(component, [&file](Bytes chunk) { return file.write(chunk); }));
  return file.commit();
}

}  // namespace openflint
