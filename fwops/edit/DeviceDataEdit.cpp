// DeviceDataEdit: sg / sv on a device, and a burn's given identity, for FS3/FS4 device data.
#include "fwops/edit/DeviceDataEdit.h"

#include <algorithm>
#include <string>

#include "core/HexString.h"
#include "core/Interrupt.h"
#include "core/UninterruptibleSection.h"
#include "image/BootCopy.h"
#include "image/FirmwareImage.h"
#include "image/ImagePatch.h"

namespace openflint {

namespace {

constexpr std::size_t kHeadBytes = 16;  // FS4: the DEV_INFO signature at the slot's start

SafeWriteReport& operator+=(SafeWriteReport& a, const SafeWriteReport& b) {
  a.sectors_unchanged += b.sectors_unchanged;
  a.sectors_in_place += b.sectors_in_place;
  a.sectors_journaled += b.sectors_journaled;
  a.sectors_forced += b.sectors_forced;
  return a;
}

Result<SafeWriteReport> write_one(FlashDriver& flash, FlashEdit edit) {
  const std::vector<FlashEdit> one{std::move(edit)};
  OF_ASSIGN(const SafeWritePlan plan, plan_preserving_write(flash, one, true));
  return apply_write_plan(flash, plan);
}

// The in-place order, as the copy burn's magic-last rule: every sector that needs an erase first
// (written with its first 16 bytes erased, then those bytes, so a cut never leaves a signed,
// half-written slot), then the sectors whose change only clears bits (the old slot's signature).
Result<SafeWriteReport> write_in_place(FlashDriver& flash, const std::vector<FlashEdit>& edits,
                                       const std::function<bool(const FlashEdit&)>& clears_only) {
  SafeWriteReport report;
  for (const FlashEdit& e : edits) {
    if (clears_only(e)) continue;
    FlashEdit body = e;
    const std::size_t head = std::min(kHeadBytes, body.bytes.size());
    std::fill_n(body.bytes.begin(), head, 0xff);
    OF_ASSIGN(const SafeWriteReport r, write_one(flash, std::move(body)));
    report += r;
    OF_ASSIGN(const SafeWriteReport h, write_one(flash, {e.address, std::vector<std::uint8_t>(e.bytes.begin(), e.bytes.begin() + static_cast<std::ptrdiff_t>(head))}));
    report += h;
  }
  for (const FlashEdit& e : edits) {
    if (!clears_only(e)) continue;
    OF_ASSIGN(const SafeWriteReport r, write_one(flash, e));
    report += r;
  }
  return report;
}

}  // namespace

Result<SafeWriteReport> patch_device_data(FlashDriver& flash, Bytes flash_bytes, ImageFormat format,
                                          std::uint64_t image_start, const FlashPatch& patch, bool force) {
  OF_ASSIGN(const std::vector<std::uint8_t> patched, patch(flash_bytes));
  if (patched.size() != flash_bytes.size())
    return make_error(ErrorCode::Internal, "a device-data patch changed the flash size");
  if (copy_bootable(format, flash_bytes, image_start) && !copy_bootable(format, patched, image_start))
    return make_error(ErrorCode::InvalidImage,
                      "the copy at " + hex_string(image_start) + " would not boot after the change: nothing written");
  const std::uint64_t sector = flash.sector_size();
  std::vector<FlashEdit> edits;
  for (std::uint64_t s = (patched.size() + sector - 1) / sector; s-- > 0;) {
    const std::uint64_t start = s * sector;
    const std::uint64_t n = std::min<std::uint64_t>(sector, patched.size() - start);
    const auto from = patched.begin() + static_cast<std::ptrdiff_t>(start);
    if (std::equal(from, from + static_cast<std::ptrdiff_t>(n), flash_bytes.begin() + static_cast<std::ptrdiff_t>(start)))
      continue;
    edits.push_back({start, std::vector<std::uint8_t>(from, from + static_cast<std::ptrdiff_t>(n))});
  }
  // A sector whose erase leaves the booting copy with its old, intact identity (FS4: the other
  // DEV_INFO slot) needs no journal: it is erased and written in place. Otherwise the journal
  // (which needs the blank scratch sectors) or `force`, highest sector first.
  const auto clears_only = [&](const FlashEdit& e) {
    return std::equal(e.bytes.begin(), e.bytes.end(), flash_bytes.begin() + static_cast<std::ptrdiff_t>(e.address),
                      [](std::uint8_t want, std::uint8_t now) { return (want & ~now) == 0; });
  };
  bool erase_safe = true;
  for (const FlashEdit& e : edits) {
    std::vector<std::uint8_t> cut(flash_bytes.begin(), flash_bytes.end());
    std::fill_n(cut.begin() + static_cast<std::ptrdiff_t>(e.address), e.bytes.size(), 0xff);
    if (!clears_only(e) && !copy_bootable(format, cut, image_start)) erase_safe = false;
  }
  OF_TRY(check_interrupted());  // the last safe point: the identity's sectors change together
  const UninterruptibleSection all_edits;
  if (!erase_safe) {
    OF_ASSIGN(const SafeWritePlan plan, plan_preserving_write(flash, edits, force));
    return apply_write_plan(flash, plan);
  }
  return write_in_place(flash, edits, clears_only);
}


FlashPatch given_identity_patch(const IdentityPlan& plan) {
  return [plan](Bytes data) { return set_identity(data, plan.given_guids, plan.given_vsd); };
}

Result<void> check_given_identity(FlashDriver& flash, Bytes image, const IdentityPlan& plan) {
  if (!plan.edits_device_data()) return {};
  std::vector<std::uint8_t> target;
  if (plan.write_image_device_data) {
    target.assign(image.begin(), image.end());
  } else {
    OF_ASSIGN(target, flash.read(0, flash.size()));
  }
  OF_TRY_CTX(given_identity_patch(plan)(target),
             std::string("the given GUIDs/MACs/VSD cannot be written into the ") +
                 (plan.write_image_device_data ? "image's" : "board's") + " device data");
  return {};
}

Result<SafeWriteReport> write_given_identity(FlashDriver& flash, const IdentityPlan& plan) {
  OF_ASSIGN(const std::vector<std::uint8_t> bytes, flash.read(0, flash.size()));
  OF_ASSIGN(const ImageQuery now, query_image(bytes));
  OF_ASSIGN_CTX(SafeWriteReport report,
                patch_device_data(flash, bytes, now.format, now.image_start, given_identity_patch(plan), false),
                "the new copy is burned; writing the given identity into DEV_INFO");
  return report;
}

}  // namespace openflint
