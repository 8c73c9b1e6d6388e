// FormatTable: the per-format rows, and the identity adapters over image/FormatPatch.
#include "image/FormatTable.h"

#include <array>

#include "image/FormatPatch.h"
#include "image/Fs1Image.h"
#include "image/Fs2Image.h"
#include "image/Fs3Image.h"
#include "image/Fs4Image.h"

namespace openflint {
namespace {

using Buffer = std::vector<std::uint8_t>;
using SetGuids = Result<void> (*)(Buffer&, std::uint64_t, const GuidSettings&);
using SetVsd = Result<void> (*)(Buffer&, std::uint64_t, const std::string&);

// FS1/FS2: the GUID section and IMG_INFO; no guids_num/step_size (those are DEV_INFO fields).
template <ImageFormat F, SetGuids set_guids, SetVsd set_vsd>
Result<void> gph_identity(Buffer& data, std::uint64_t offset, const GuidSettings* guids, const UidAllocation& allocation,
                          const std::string* vsd) {
  if (allocation.any())
    return make_error(ErrorCode::NotSupported, "guids_num/step_size are FS3/FS4 only (DEV_INFO); this is an " +
                                                   std::string(to_string(F)) + " image");
  if (guids != nullptr) OF_TRY(set_guids(data, offset, *guids));
  if (vsd != nullptr) OF_TRY(set_vsd(data, offset, *vsd));
  return {};
}

template <bool Fs4>
Result<void> dev_info_identity(Buffer& data, std::uint64_t offset, const GuidSettings* guids,
                               const UidAllocation& allocation, const std::string* vsd) {
  return patch::dev_info_set(data, offset, Fs4, guids, allocation, vsd);
}

constexpr std::array<FormatOps, 4> kFormats{{
    {ImageFormat::Fs4, fs4::probe, fs4::query, fs4::verify, fs4::dump_config, dev_info_identity<true>, nullptr},
    {ImageFormat::Fs3, fs3::probe, fs3::query, fs3::verify, fs3::dump_config, dev_info_identity<false>, nullptr},
    {ImageFormat::Fs2, fs2::probe, fs2::query, fs2::verify, fs2::dump_config,
     gph_identity<ImageFormat::Fs2, patch::fs2_set_guids, patch::fs2_set_vsd>, patch::fs2_set_uids},
    {ImageFormat::Fs1, fs1::probe, fs1::query, fs1::verify, fs1::dump_config,
     gph_identity<ImageFormat::Fs1, patch::fs1_set_guids, patch::fs1_set_vsd>, patch::fs1_set_uids},
}};

}  // namespace

std::span<const FormatOps> format_table() { return kFormats; }

const FormatOps& format_ops(ImageFormat format) {
  for (const auto& ops : kFormats)
    if (ops.format == format) return ops;
  return kFormats[0];  // unreachable: every enumerator has a row
}

}  // namespace openflint
