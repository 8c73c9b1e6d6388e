// FlashImage: flash dump -> image file, per format (see FlashImage.h).
#include "image/FlashImage.h"

#include <algorithm>

#include "image/BootCopy.h"
#include "image/FirmwareImage.h"
#include "image/Fs2Header.h"

namespace openflint {
namespace {

Result<std::vector<std::uint8_t>> file_from(Bytes flash, const ImageQuery& q, const VerifyReport& report);

std::vector<std::uint8_t> copy_range(Bytes flash, std::uint64_t begin, std::uint64_t end) {
  end = std::min<std::uint64_t>(end, flash.size());
  begin = std::min(begin, end);
  return {flash.begin() + static_cast<std::ptrdiff_t>(begin), flash.begin() + static_cast<std::ptrdiff_t>(end)};
}

}  // namespace

Result<std::vector<std::uint8_t>> image_file_from_flash(Bytes flash) {
  OF_ASSIGN(const ImageQuery q, query_image(flash));
  OF_ASSIGN(const VerifyReport report, verify_image(flash));
  return file_from(flash, q, report);
}

Result<std::vector<std::uint8_t>> image_file_from_copy(Bytes flash, const BootCopy& copy) {
  OF_ASSIGN(const VerifyReport report, verify_copy(copy.format, flash, copy.start));
  return file_from(flash, copy.query, report);
}

namespace {

Result<std::vector<std::uint8_t>> file_from(Bytes flash, const ImageQuery& q, const VerifyReport& report) {
  std::uint64_t sections_end = 0;
  for (const auto& s : report.sections) sections_end = std::max(sections_end, s.start + s.size);

  if (q.format == ImageFormat::Fs1)  // the file layout is the flash layout
    return copy_range(flash, 0, std::max<std::uint64_t>(sections_end, q.image_size));
  if (q.format == ImageFormat::Fs2) {
    const Bytes from_start = flash.subspan(std::min<std::uint64_t>(q.image_start, flash.size()));
    OF_ASSIGN(const fs2::Header h, fs2::read_header(from_start));
    std::vector<std::uint8_t> image = h.failsafe ? fs2::destripe(flash, q.image_start != 0, h.log2_chunk)
                                                 : std::vector<std::uint8_t>(from_start.begin(), from_start.end());
    if (q.image_size != 0 && q.image_size < image.size()) image.resize(q.image_size);
    return image;
  }
  // FS3/FS4: the copy's own sections follow it; anything else verify listed is board data at
  // absolute flash addresses.
  const std::uint64_t start = q.image_start;
  const std::uint64_t copy_end = std::min<std::uint64_t>(start + q.image_size, flash.size());
  std::uint64_t file_size = copy_end - start;
  for (const auto& s : report.sections)
    if (s.start + s.size > copy_end || s.start < start) file_size = std::max(file_size, s.start + s.size);
  file_size = std::min<std::uint64_t>(file_size, flash.size());
  std::uint64_t device_data = file_size;  // where the board's data outside the copy starts
  for (const auto& s : report.sections)
    if (s.start + s.size > copy_end || s.start < start) device_data = std::min(device_data, s.start);
  // FS4's device data hangs off the DTOC, which a reader finds in the file's last 4 KiB (as in the
  // flash's), and its entries and the spare slots of DEV_INFO lie between the sections verify
  // lists: the whole area from the first device-data section to the flash's end is the board's.
  const bool whole_tail =
      q.format == ImageFormat::Fs4 && device_data < file_size && device_data >= copy_end - start;
  if (whole_tail) file_size = flash.size();
  std::vector<std::uint8_t> image(file_size, 0xff);
  std::copy(flash.begin() + static_cast<std::ptrdiff_t>(start), flash.begin() + static_cast<std::ptrdiff_t>(copy_end),
            image.begin());
  if (whole_tail) {
    std::copy(flash.begin() + static_cast<std::ptrdiff_t>(device_data), flash.end(),
              image.begin() + static_cast<std::ptrdiff_t>(device_data));
    return image;
  }
  for (const auto& s : report.sections) {
    if (s.start >= start && s.start + s.size <= copy_end) continue;  // part of the copy
    const std::uint64_t end = std::min<std::uint64_t>(s.start + s.size, file_size);
    if (s.start >= end) continue;
    std::copy(flash.begin() + static_cast<std::ptrdiff_t>(s.start), flash.begin() + static_cast<std::ptrdiff_t>(end),
              image.begin() + static_cast<std::ptrdiff_t>(s.start));
  }
  return image;
}

}  // namespace
}  // namespace openflint
