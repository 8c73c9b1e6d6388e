// Mfa2Writer: builds an MFA2 package (one device descriptor and one firmware component per PSID) that the kernel's mlxfw parser takes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ByteReader.h"
#include "core/OutputFile.h"
#include "core/Result.h"
#include "image/XzWriter.h"

namespace openflint {

struct Mfa2Input {
  std::string psid;
  std::vector<std::uint8_t> image;  // the firmware image (component identifier 1)
};

// A device of a package being streamed: its PSID and the size of its firmware image.
struct Mfa2Entry {
  std::string psid;
  std::uint64_t size = 0;
};

// Fingerprint; a package-descriptor multi-part (the descriptor, then mstflint's two SHA-256
// extensions, image/Mfa2Format.h); per input, in order, a device multi-part
// {PSID, COMPONENT_PTR to its component} and then a component multi-part {COMPONENT_DESCRIPTOR};
// then the component block: one xz stream (CRC32 check, `xz_preset`) of each image preceded by
// "#BIN.COMPONENT!#". No other optional TLVs (versions, descriptions). An empty input list, an empty or
// duplicate PSID, a PSID over 255 bytes or an empty image is InvalidArgument.
[[nodiscard]] Result<std::vector<std::uint8_t>> build_mfa2(const std::vector<Mfa2Input>& inputs,
                                                           std::uint32_t xz_preset = 6);

// The same package written to a file as the images arrive, never holding them: start() writes
// the descriptors (their sizes depend only on the PSIDs), write() takes the images' bytes back to
// back in entry order (the component magics are put in between), finish() ends the xz stream,
// rewrites the package descriptor with the stored CB size and fills in the two SHA-256 digests
// (reading the stored CB back once). `out` must be a regular file (OutputFile's temp file);
// the caller commits it. Memory: the encoder's state and 1 MiB buffers.
class Mfa2StreamWriter {
 public:
  [[nodiscard]] static Result<Mfa2StreamWriter> start(OutputFile& out, std::vector<Mfa2Entry> entries,
                                                      std::uint32_t xz_preset = 6);
  // More image bytes. More than the entries announce is InvalidArgument.
  [[nodiscard]] Result<void> write(Bytes bytes);
  // Fewer bytes than announced is InvalidArgument. Returns the package's size.
  [[nodiscard]] Result<std::uint64_t> finish();
  // The component block's unpacked bytes so far (magics included).
  [[nodiscard]] std::uint64_t cb_written() const { return cb_written_; }

 private:
  Mfa2StreamWriter(OutputFile& out, std::vector<Mfa2Entry> entries, std::uint64_t cb_offset, XzWriter xz)
      : out_(&out), entries_(std::move(entries)), cb_offset_(cb_offset), xz_(std::move(xz)) {}
  OutputFile* out_;
  std::vector<Mfa2Entry> entries_;
  std::uint64_t cb_offset_ = 0;    // where the stored CB starts in the file
  std::optional<XzWriter> xz_;
  std::size_t current_ = 0;        // the entry being received
  std::uint64_t left_ = 0;         // its bytes still to come (0: its magic is next)
  bool magic_written_ = false;
  std::uint64_t cb_written_ = 0;
};

}  // namespace openflint
