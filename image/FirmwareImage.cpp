// FirmwareImage: finds the image in a buffer and dispatches to the format's module.
#include "image/FirmwareImage.h"

#include <array>
#include <cstdio>

#include "image/Fs1Image.h"
#include "image/Fs2Image.h"
#include "image/Fs3Image.h"
#include "image/Fs4Image.h"

namespace openflint {
namespace {

struct FormatOps {
  ImageFormat format;
  bool (*probe)(Bytes, std::uint64_t);
  Result<ImageQuery> (*query)(Bytes, std::uint64_t);
  Result<VerifyReport> (*verify)(Bytes, std::uint64_t);
  Result<std::string> (*dump_config)(Bytes, std::uint64_t);
};

// Probe order matters: FS4's magic is distinct; FS3 and FS2 share a magic and are told apart
// by the format byte, which fs3::probe checks; FS1 has its own invariant-sector signature.
constexpr std::array<FormatOps, 4> kFormats{{
    {ImageFormat::Fs4, fs4::probe, fs4::query, fs4::verify, fs4::dump_config},
    {ImageFormat::Fs3, fs3::probe, fs3::query, fs3::verify, fs3::dump_config},
    {ImageFormat::Fs2, fs2::probe, fs2::query, fs2::verify, fs2::dump_config},
    {ImageFormat::Fs1, fs1::probe, fs1::query, fs1::verify, fs1::dump_config},
}};

const FormatOps& ops_for(ImageFormat format) {
  for (const auto& ops : kFormats)
    if (ops.format == format) return ops;
  return kFormats[0];  // unreachable: every enumerator has a row
}

}  // namespace

Result<ImageLocation> locate_image(Bytes data) {
  // Start offsets: 0, then every power of two from 64 KiB to 32 MiB.
  std::uint64_t offset = 0;
  while (offset < data.size()) {
    for (const auto& ops : kFormats)
      if (ops.probe(data, offset)) return ImageLocation{ops.format, offset};
    offset = offset == 0 ? 0x10000 : offset * 2;
    if (offset > 0x2000000) break;
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "no valid image found (searched %zu bytes for FS1-FS4 signatures)",
                data.size());
  return make_error(ErrorCode::InvalidImage, buf);
}

Result<ImageQuery> query_image(Bytes data) {
  OF_ASSIGN(const ImageLocation loc, locate_image(data));
  return ops_for(loc.format).query(data, loc.offset);
}

Result<VerifyReport> verify_image(Bytes data) {
  OF_ASSIGN(const ImageLocation loc, locate_image(data));
  return ops_for(loc.format).verify(data, loc.offset);
}

Result<std::string> dump_config(Bytes data) {
  OF_ASSIGN(const ImageLocation loc, locate_image(data));
  return ops_for(loc.format).dump_config(data, loc.offset);
}

}  // namespace openflint
