// FirmwarePackage: a multi-board firmware package of any supported kind (MFA v1, MFA2, PLDM), opened by its content.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"

namespace openflint {

// The kinds open_package() tells apart by their first bytes. A new kind is one enum value, one
// branch in package_kind() and one in open_package()/package_from_bytes().
enum class PackageKind { Mfa, Mfa2, Pldm };
[[nodiscard]] std::string_view to_string(PackageKind kind);  // "MFA archive", "MFA2 package", "PLDM package"

// One board's firmware image in a package.
struct PackageImage {
  std::string psid;
  std::uint64_t size = 0;
};

// What every tool that takes "an image or a package" needs: the boards' PSIDs and one board's
// firmware image streamed out. The format's own class (image/MfaArchive, Mfa2Package, PldmPackage)
// keeps everything else (listing details, metadata).
class FirmwarePackage {
 public:
  using Sink = std::function<Result<void>(Bytes chunk)>;
  // Receives wanted[index]'s bytes; each image arrives whole before the next one starts.
  using EachSink = std::function<Result<void>(std::size_t index, Bytes chunk)>;

  FirmwarePackage() = default;
  FirmwarePackage(const FirmwarePackage&) = delete;
  FirmwarePackage& operator=(const FirmwarePackage&) = delete;
  virtual ~FirmwarePackage() = default;

  [[nodiscard]] virtual PackageKind kind() const = 0;
  // Every board that has a firmware image, in the order the package stores the images.
  [[nodiscard]] virtual const std::vector<PackageImage>& images() const = 0;
  // The board `psid` names: NotFound (naming the PSID) when none does; InvalidImage when its
  // image claims more than `max_size` bytes (checked before anything is unpacked).
  [[nodiscard]] Result<PackageImage> find(std::string_view psid, std::uint64_t max_size) const;
  // Streams the firmware image of the board `psid` names (find()'s checks first).
  [[nodiscard]] virtual Result<void> extract(std::string_view psid, std::uint64_t max_size, const Sink& sink) const = 0;
  // The images of `wanted` (taken from images(), in its order) one after another: one pass over
  // an MFA archive's DATA; by default one extract() per board (an MFA2 package decodes its CB from
  // the start for each).
  [[nodiscard]] virtual Result<void> extract_each(const std::vector<PackageImage>& wanted, const EachSink& sink) const;
};

// The kind `head` (a file's first kPackageHeadBytes or more) starts as; nullopt for anything else.
inline constexpr std::size_t kPackageHeadBytes = 16;
[[nodiscard]] std::optional<PackageKind> package_kind(Bytes head);
// The same for a file (special files are not read: nullopt).
[[nodiscard]] std::optional<PackageKind> package_kind_of_file(const std::string& path);
// Opens the package the file's content says it is, with that format's checks (its errors name
// the file). A file that is no package is InvalidImage.
[[nodiscard]] Result<std::unique_ptr<FirmwarePackage>> open_package(const std::string& path);
[[nodiscard]] Result<std::unique_ptr<FirmwarePackage>> package_from_bytes(std::vector<std::uint8_t> bytes,
                                                                          const std::string& label);

}  // namespace openflint
