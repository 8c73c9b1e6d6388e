// Mfa2Repack: the source package's images streamed through Mfa2StreamWriter into a temp file, renamed when complete.
#include "image/Mfa2Repack.h"

#include <set>

#include "core/OutputFile.h"
#include "image/Mfa2Writer.h"

namespace openflint {

Result<Mfa2RepackResult> repack_as_mfa2(const FirmwarePackage& source, const std::vector<std::string>& psids,
                                        std::uint64_t max_image_size, const std::string& out_path,
                                        const std::function<void(std::uint64_t, std::uint64_t)>& progress,
                                        std::uint32_t xz_preset) {
  std::set<std::string> chosen(psids.begin(), psids.end());
  for (const auto& psid : chosen) OF_TRY(source.find(psid, max_image_size));  // NotFound before anything is written
  std::vector<PackageImage> wanted;
  std::vector<Mfa2Entry> entries;
  std::uint64_t total = 0;
  for (const auto& image : source.images()) {
    if (!chosen.empty() && chosen.count(image.psid) == 0) continue;
    OF_TRY(source.find(image.psid, max_image_size));
    wanted.push_back(image);
    entries.push_back({.psid = image.psid, .size = image.size});
    total += image.size;
  }
  if (wanted.empty())
    return make_error(ErrorCode::NotFound, "the " + std::string(to_string(source.kind())) + " holds no firmware image");
  OF_ASSIGN(OutputFile file, OutputFile::create(out_path, "MFA2 package"));
  OF_ASSIGN(Mfa2StreamWriter writer, Mfa2StreamWriter::start(file, entries, xz_preset));
  std::uint64_t done = 0;
  if (progress) progress(0, total);
  const auto write = [&](std::size_t, Bytes chunk) -> Result<void> {
    OF_TRY(writer.write(chunk));
    done += chunk.size();
    if (progress) progress(done, total);
    return {};
  };
  OF_TRY(source.extract_each(wanted, write));
  Mfa2RepackResult result;
  result.cb_size = writer.cb_written();
  OF_ASSIGN(result.size, writer.finish());
  OF_TRY(file.commit());
  for (const auto& image : wanted) result.psids.push_back(image.psid);
  return result;
}

}  // namespace openflint
