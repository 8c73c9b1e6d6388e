// PldmPackage lookup and extraction: a PSID's record, its firmware component, its bytes read from the file in chunks.
#include <algorithm>
#include <vector>

#include "core/OutputFile.h"
#include "image/PldmFormat.h"
#include "image/PldmPackage.h"

namespace openflint {

Result<const PldmDeviceRecord*> PldmPackage::find_record(std::string_view psid) const {
  for (const auto& record : records_)
    if (!record.downstream && !record.psid.empty() && record.psid == psid) return &record;
  return make_error(ErrorCode::NotFound, "no device record with PSID " + std::string(psid) + " in the PLDM package");
}

Result<const PldmComponent*> PldmPackage::firmware(const PldmDeviceRecord& record, std::uint64_t max_size) const {
  // NVIDIA's NIC firmware component: identifier 1 ("FW"), or 0x3001 ("NIC_FW") in the packages
  // that also carry BMC or ARM components (mstflint pldmlib/pldm_utils.h).
  constexpr std::uint16_t kNicFirmware = 0x3001;
  const PldmComponent* found = nullptr;
  for (const std::uint16_t index : record.components) {
    const PldmComponent& c = components_.at(index);
    if (record.components.size() == 1 || c.identifier == pldm::kComponentFirmware || c.identifier == kNicFirmware) {
      found = &c;
      break;
    }
  }
  if (found == nullptr)
    return make_error(ErrorCode::NotFound, "device " + record.psid + " has no firmware component (identifier 1)");
  if (found->size > max_size)
    return make_error(ErrorCode::InvalidImage, "device " + record.psid + "'s firmware component is " +
                                                   std::to_string(found->size) + " bytes, larger than any flash (" +
                                                   std::to_string(max_size) + " bytes)");
  return found;
}

Result<void> PldmPackage::extract(const PldmComponent& component, const Sink& sink) const {
  if (component.offset > source_->size() || component.size > source_->size() - component.offset)
    return make_error(ErrorCode::InvalidArgument, "component range is past the end of the package");
  std::vector<std::uint8_t> buffer(std::min<std::size_t>(kChunkSize, component.size));
  for (std::uint64_t done = 0; done < component.size;) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), component.size - done));
    OF_TRY(source_->read(component.offset + done, std::span(buffer).first(n)));
    OF_TRY(sink(Bytes(buffer).first(n)));
    done += n;
  }
  return {};
}

Result<void> PldmPackage::extract_to_file(const PldmComponent& component, const std::string& path) const {
  OF_ASSIGN(OutputFile file, OutputFile::create(path, "output"));
  OF_TRY(extract(component, [&file](Bytes chunk) { return file.write(chunk); }));
  return file.commit();
}

}  // namespace openflint
