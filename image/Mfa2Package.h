// Mfa2Package: MFA2 firmware packages ("MLNX.MFA2.XZ.00!", what devlink and fwupd take) — list devices, stream one component out.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ByteReader.h"
#include "core/ByteSource.h"
#include "core/Result.h"

namespace openflint {

// A component descriptor: where its bytes are in the unpacked component block.
struct Mfa2Component {
  std::uint16_t identifier = 0;  // the component index the device's update machinery takes (1: firmware)
  std::uint16_t pldm_classification = 0;
  std::uint64_t cb_offset = 0;  // of its "#BIN.COMPONENT!#" magic in the unpacked CB
  std::uint32_t size = 0;       // bytes after the magic
};

// A device descriptor: a PSID and the components (indexes into components()) it takes, in order.
struct Mfa2Device {
  std::string psid;
  std::vector<std::uint16_t> components;
};

class Mfa2Package {
 public:
  // The same bounds as an MFA v1 archive (image/MfaArchive.h): file size, unpacked CB size
  // (from the xz index, nothing decoded), and bytes of the CB that belong to no component.
  static constexpr std::uint64_t kMaxPackageSize = std::uint64_t{1} << 30;
  static constexpr std::uint64_t kMaxCbUnpackedSize = std::uint64_t{2} << 30;
  static constexpr std::uint64_t kMaxUnownedCbPerComponent = 4096;
  // Descriptors (everything between the fingerprint and the CB) are read whole: at most this.
  static constexpr std::uint64_t kMaxDescriptorSize = std::uint64_t{16} << 20;
  static constexpr std::size_t kChunkSize = std::size_t{1} << 20;

  // Checks the fingerprint, every TLV (inside the descriptor area, multi-part children inside
  // their parent), the package descriptor's counts, the device and component descriptors
  // (each component pointer names an existing component), the CB's range in the file and,
  // for xz, its index: every component (magic + size) lies inside the unpacked CB, no two
  // overlap, and at most kMaxUnownedCbPerComponent bytes per component belong to none.
  // When the package descriptor carries mstflint's SHA-256 extensions, both are checked
  // (image/Mfa2Format.h; a wrong one is Mismatch; this reads the stored CB once).
  // Every other failure is InvalidImage (an unknown compression: NotSupported). Nothing is unpacked.
  [[nodiscard]] static Result<Mfa2Package> open(const std::string& path);
  [[nodiscard]] static Result<Mfa2Package> from_bytes(std::vector<std::uint8_t> package);
  [[nodiscard]] static Result<Mfa2Package> from_source(std::shared_ptr<const ByteSource> source);
  // True when `head` starts with the MFA2 fingerprint.
  [[nodiscard]] static bool has_fingerprint(Bytes head);

  [[nodiscard]] const std::vector<Mfa2Device>& devices() const { return devices_; }
  [[nodiscard]] const std::vector<Mfa2Component>& components() const { return components_; }
  [[nodiscard]] std::uint64_t cb_unpacked_size() const { return cb_unpacked_size_; }
  [[nodiscard]] bool cb_compressed() const { return cb_xz_; }
  // Whether the package carried the SHA-256 extensions (0x2F and/or 0x30); open() checked them.
  [[nodiscard]] bool has_sha256() const { return sha256_at_ != 0 || descriptors_sha256_at_ != 0; }
  // What that check found: empty when they matched (or were absent), else which did not and the
  // two values. A mismatch is reported, not refused: which bytes mstflint's writer digests is read
  // from its source only (docs/packages.md), no real package confirmed it, and the kernel reads
  // none; every structural check above still refuses.
  [[nodiscard]] const std::string& sha256_mismatch() const { return sha256_mismatch_; }

  [[nodiscard]] Result<const Mfa2Device*> find_device(std::string_view psid) const;
  // The device's firmware component: its only one, else the one with identifier 1. NotFound
  // when none; InvalidImage when it is larger than `max_size` (checked before anything is unpacked).
  [[nodiscard]] Result<const Mfa2Component*> firmware(const Mfa2Device& device, std::uint64_t max_size) const;

  using Sink = std::function<Result<void>(Bytes chunk)>;
  // Streams the component's bytes (without the magic) to `sink` in chunks of at most
  // kChunkSize, decoding the CB from its start up to the component's end only (the stream's
  // own check is verified when the component ends the CB). A wrong magic is InvalidImage.
  [[nodiscard]] Result<void> extract(const Mfa2Component& component, const Sink& sink) const;
  // extract() into a file through core/OutputFile (atomic for a regular file).
  [[nodiscard]] Result<void> extract_to_file(const Mfa2Component& component, const std::string& path) const;

 private:
  std::shared_ptr<const ByteSource> source_;
  std::uint64_t cb_offset_ = 0;  // of the CB in the file
  std::uint64_t cb_size_ = 0;    // stored (compressed) size
  std::uint64_t cb_unpacked_size_ = 0;
  bool cb_xz_ = true;
  std::vector<Mfa2Device> devices_;
  std::vector<Mfa2Component> components_;
  std::uint64_t sha256_at_ = 0;              // of the 0x2F digest in the descriptors; 0: absent
  std::uint64_t descriptors_sha256_at_ = 0;  // of the 0x30 digest; 0: absent
  std::string sha256_mismatch_;

  [[nodiscard]] Result<void> parse();
  // The SHA-256 extensions, when present: sha256_mismatch_ says which is wrong (Mfa2Digest.cpp);
  // an error only when the digest cannot be computed (the CB cannot be read).
  [[nodiscard]] Result<void> check_digests(Bytes descriptors);
  [[nodiscard]] Result<void> check_cb() const;
};

}  // namespace openflint
