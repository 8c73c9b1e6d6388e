// FirmwareImage: finds the image in a buffer and dispatches to the format's module.
#include "image/FirmwareImage.h"

#include <cstdio>

#include "image/FormatTable.h"


namespace openflint {

Result<ImageLocation> locate_image(Bytes data) {
  // Start offsets: 0, then every power of two from 64 KiB to 32 MiB.
  std::uint64_t offset = 0;
  while (offset < data.size()) {
    for (const auto& ops : format_table())
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
  return format_ops(loc.format).query(data, loc.offset);
}

Result<VerifyReport> verify_image(Bytes data) {
  OF_ASSIGN(const ImageLocation loc, locate_image(data));
  return format_ops(loc.format).verify(data, loc.offset);
}

Result<std::string> dump_config(Bytes data) {
  OF_ASSIGN(const ImageLocation loc, locate_image(data));
  return format_ops(loc.format).dump_config(data, loc.offset);
}

}  // namespace openflint
