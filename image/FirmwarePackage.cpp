// FirmwarePackage: the one place that tells packages apart by content, and the MFA v1, MFA2 and PLDM views behind it.
#include "image/FirmwarePackage.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "core/InputFile.h"
#include "image/Mfa2Format.h"
#include "image/Mfa2Package.h"
#include "image/MfaArchive.h"
#include "image/PldmPackage.h"

namespace openflint {
namespace {

class MfaPackageView final : public FirmwarePackage {
 public:
  explicit MfaPackageView(MfaArchive archive) : archive_(std::move(archive)) {
    std::vector<const MfaBoard*> boards;
    for (const auto& board : archive_.boards())
      if (board.firmware() != nullptr) boards.push_back(&board);
    std::stable_sort(boards.begin(), boards.end(), [](const MfaBoard* a, const MfaBoard* b) {
      return a->firmware()->data_offset < b->firmware()->data_offset;
    });
    for (const MfaBoard* board : boards) images_.push_back({.psid = board->psid, .size = board->firmware()->data_size});
  }
  PackageKind kind() const override { return PackageKind::Mfa; }
  const std::vector<PackageImage>& images() const override { return images_; }
  Result<void> extract(std::string_view psid, std::uint64_t max_size, const Sink& sink) const override {
    OF_ASSIGN(const MfaBoard* board, archive_.find_board(psid, max_size));
    return archive_.extract(*board, sink);
  }
  Result<void> extract_each(const std::vector<PackageImage>& wanted, const EachSink& sink) const override {
    // One pass over DATA: the images do not overlap (MfaArchive::open checked it) and come in
    // DATA order, so each sink receives its image whole before the next one's bytes.
    // Boards that share one image (a TOC entry named twice) would interleave: those go one by one.
    std::vector<const MfaBoard*> boards;
    std::vector<MfaArchive::Sink> sinks;
    bool shared = false;
    for (std::size_t i = 0; i < wanted.size(); ++i) {
      OF_ASSIGN(const MfaBoard* board, archive_.find_board(wanted[i].psid));
      for (const MfaBoard* before : boards)
        shared = shared || before->firmware()->data_offset + before->firmware()->data_size > board->firmware()->data_offset;
      boards.push_back(board);
      sinks.emplace_back([&sink, i](Bytes chunk) { return sink(i, chunk); });
    }
    if (!shared) return archive_.extract_many(boards, sinks);
    for (std::size_t i = 0; i < boards.size(); ++i) OF_TRY(archive_.extract(*boards[i], sinks[i]));
    return {};
  }

 private:
  MfaArchive archive_;
  std::vector<PackageImage> images_;
};

class Mfa2PackageView final : public FirmwarePackage {
 public:
  explicit Mfa2PackageView(Mfa2Package package) : package_(std::move(package)) {
    std::vector<std::pair<std::uint64_t, PackageImage>> found;
    for (const auto& device : package_.devices()) {
      auto component = package_.firmware(device, UINT64_MAX);
      if (component) found.push_back({(*component)->cb_offset, {.psid = device.psid, .size = (*component)->size}});
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [offset, image] : found) images_.push_back(std::move(image));
  }
  PackageKind kind() const override { return PackageKind::Mfa2; }
  const std::vector<PackageImage>& images() const override { return images_; }
  Result<void> extract(std::string_view psid, std::uint64_t max_size, const Sink& sink) const override {
    OF_ASSIGN(const Mfa2Device* device, package_.find_device(psid));
    OF_ASSIGN(const Mfa2Component* component, package_.firmware(*device, max_size));
    return package_.extract(*component, sink);
  }

 private:
  Mfa2Package package_;
  std::vector<PackageImage> images_;
};

// A PLDM package's firmware device records that carry NVIDIA's PSID descriptor, each with the
// firmware component PldmPackage::firmware() picks for it (downstream records are never boards).
class PldmPackageView final : public FirmwarePackage {
 public:
  explicit PldmPackageView(PldmPackage package) : package_(std::move(package)) {
    for (const auto& record : package_.records()) {
      if (record.psid.empty()) continue;
      auto component = package_.firmware(record, UINT64_MAX);
      if (component) images_.push_back({.psid = record.psid, .size = (*component)->size});
    }
  }
  PackageKind kind() const override { return PackageKind::Pldm; }
  const std::vector<PackageImage>& images() const override { return images_; }
  Result<void> extract(std::string_view psid, std::uint64_t max_size, const Sink& sink) const override {
    OF_ASSIGN(const PldmDeviceRecord* record, package_.find_record(psid));
    OF_ASSIGN(const PldmComponent* component, package_.firmware(*record, max_size));
    return package_.extract(*component, sink);
  }

 private:
  PldmPackage package_;
  std::vector<PackageImage> images_;
};

}  // namespace

std::string_view to_string(PackageKind kind) {
  switch (kind) {
    case PackageKind::Mfa: return "MFA archive";
    case PackageKind::Mfa2: return "MFA2 package";
    case PackageKind::Pldm: return "PLDM package";
  }
  return "package";
}

Result<PackageImage> FirmwarePackage::find(std::string_view psid, std::uint64_t max_size) const {
  for (const auto& image : images()) {
    if (image.psid != psid) continue;
    if (image.size > max_size)
      return make_error(ErrorCode::InvalidImage, "the image of " + image.psid + " claims " + std::to_string(image.size) +
                                                     " bytes, more than any flash holds");
    return image;
  }
  return make_error(ErrorCode::NotFound, "no board with PSID " + std::string(psid) + " in the " +
                                             std::string(to_string(kind())));
}

Result<void> FirmwarePackage::extract_each(const std::vector<PackageImage>& wanted, const EachSink& sink) const {
  for (std::size_t i = 0; i < wanted.size(); ++i)
    OF_TRY_CTX(extract(wanted[i].psid, UINT64_MAX, [&sink, i](Bytes chunk) { return sink(i, chunk); }),
               "device " + wanted[i].psid);
  return {};
}

std::optional<PackageKind> package_kind(Bytes head) {
  if (Mfa2Package::has_fingerprint(head)) return PackageKind::Mfa2;
  if (PldmPackage::has_header_identifier(head)) return PackageKind::Pldm;
  if (head.size() >= 4 && std::memcmp(head.data(), "MFAR", 4) == 0) return PackageKind::Mfa;
  return std::nullopt;
}

std::optional<PackageKind> package_kind_of_file(const std::string& path) {
  // Special files are not packages; opening them here must not block (a FIFO) or read (a tty).
  auto file = InputFile::open(path, UINT64_MAX);
  if (!file) return std::nullopt;
  std::uint8_t head[kPackageHeadBytes] = {};
  const ssize_t n = ::pread(file->fd(), head, sizeof head, 0);
  if (n <= 0) return std::nullopt;
  return package_kind(Bytes(head, static_cast<std::size_t>(n)));
}

Result<std::unique_ptr<FirmwarePackage>> open_package(const std::string& path) {
  // A file that cannot be opened (missing, a directory, a FIFO) is reported as such.
  OF_TRY(InputFile::open(path, UINT64_MAX, "firmware package"));
  switch (package_kind_of_file(path).value_or(static_cast<PackageKind>(-1))) {
    case PackageKind::Mfa: {
      OF_ASSIGN(MfaArchive archive, MfaArchive::open(path));
      return std::unique_ptr<FirmwarePackage>(std::make_unique<MfaPackageView>(std::move(archive)));
    }
    case PackageKind::Mfa2: {
      OF_ASSIGN(Mfa2Package package, Mfa2Package::open(path));
      return std::unique_ptr<FirmwarePackage>(std::make_unique<Mfa2PackageView>(std::move(package)));
    }
    case PackageKind::Pldm: {
      OF_ASSIGN(PldmPackage package, PldmPackage::open(path));
      return std::unique_ptr<FirmwarePackage>(std::make_unique<PldmPackageView>(std::move(package)));
    }
  }
  return make_error(ErrorCode::InvalidImage, path + " is not a firmware package (MFA, MFA2 or PLDM)");
}

Result<std::unique_ptr<FirmwarePackage>> package_from_bytes(std::vector<std::uint8_t> bytes, const std::string& label) {
  switch (package_kind(bytes).value_or(static_cast<PackageKind>(-1))) {
    case PackageKind::Mfa: {
      OF_ASSIGN_CTX(MfaArchive archive, MfaArchive::from_bytes(std::move(bytes)), label);
      return std::unique_ptr<FirmwarePackage>(std::make_unique<MfaPackageView>(std::move(archive)));
    }
    case PackageKind::Mfa2: {
      OF_ASSIGN_CTX(Mfa2Package package, Mfa2Package::from_bytes(std::move(bytes)), label);
      return std::unique_ptr<FirmwarePackage>(std::make_unique<Mfa2PackageView>(std::move(package)));
    }
    case PackageKind::Pldm: {
      OF_ASSIGN_CTX(PldmPackage package, PldmPackage::from_bytes(std::move(bytes)), label);
      return std::unique_ptr<FirmwarePackage>(std::make_unique<PldmPackageView>(std::move(package)));
    }
  }
  return make_error(ErrorCode::InvalidImage, label + " is not a firmware package (MFA, MFA2 or PLDM)");
}

}  // namespace openflint
