// MfaArchive: MFA v1 ("MFAR") multi-board firmware bundles — list boards, stream one out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ByteReader.h"
#include "core/ByteSource.h"
#include "core/Result.h"
#include "image/ImageQuery.h"

namespace openflint {

// One image of a board, as its MAP entry and TOC entry describe it.
struct MfaImageRef {
  std::uint16_t image_type = 0;  // 1 = firmware
  std::uint8_t group_id = 0;
  std::string select_tag;
  std::uint32_t toc_offset = 0;      // of its TOC entry, from the start of the TOC payload
  std::uint16_t subimage_type = 0;   // TOC entry field (1 on every real archive)
  std::uint64_t data_offset = 0;  // into the unpacked DATA stream (48 bits: msb << 32 | lsb)
  std::uint32_t data_size = 0;
  std::optional<FwVersion> version;
  std::map<std::string, std::string> metadata;  // TOC metadata key=value
};

struct MfaBoard {
  std::string psid;
  std::string part_number;  // MAP metadata "PN"
  std::string description;  // MAP metadata "DESCRIPTION"
  std::optional<FwVersion> fw_version;  // from the board's firmware image TOC entry
  std::map<std::string, std::string> metadata;
  std::vector<MfaImageRef> images;
  // The firmware image: image_type 1, empty select tag (first group). Null when none.
  [[nodiscard]] const MfaImageRef* firmware() const;
};

class MfaArchive {
 public:
  // The largest archive open() accepts (a larger file is InvalidArgument, nothing read).
  static constexpr std::uint64_t kMaxArchiveSize = std::uint64_t{1} << 30;
  // Unpacked DATA bytes per TOC entry that may belong to no entry (alignment slack; every
  // real archive has none). More is InvalidImage at open, before DATA is decoded.
  static constexpr std::uint64_t kMaxUnownedDataPerEntry = 4096;
  // The largest unpacked DATA stream (from the xz index) open() accepts: the largest real
  // archive unpacks to 1,524,117,504 bytes (91 boards of 16 MiB; extracting its boards takes
  // under 2 s). Decoding 4 GiB of zeros took 10.6 s in a release build, so this keeps any
  // extraction near 5 s, under the 10 s bound for hostile input.
  static constexpr std::uint64_t kMaxDataUnpackedSize = std::uint64_t{2} << 30;

  // Reads and checks the header, the section layout, the CRC32 trailer (Mismatch when wrong),
  // MAP and TOC (xz-compressed when flagged; each at most mfa::kMaxTableSize), and the DATA
  // stream's xz index: every image range must lie within the unpacked DATA size, image ranges
  // of distinct TOC entries must not overlap, and they must cover DATA (up to
  // kMaxUnownedDataPerEntry per entry), so no extraction decodes bytes that no entry owns. DATA itself
  // is not unpacked here. The file is read in pieces (the CRC in kChunkSize chunks) and kept
  // open, never held whole in memory; extraction reads DATA from it again.
  [[nodiscard]] static Result<MfaArchive> open(const std::string& path);
  [[nodiscard]] static Result<MfaArchive> from_bytes(std::vector<std::uint8_t> archive);
  // Any source; open() and from_bytes() come here.
  [[nodiscard]] static Result<MfaArchive> from_source(std::shared_ptr<const ByteSource> source);

  [[nodiscard]] const std::vector<MfaBoard>& boards() const { return boards_; }
  [[nodiscard]] Result<const MfaBoard*> find_board(std::string_view psid) const;
  // find_board, but a board whose firmware image claims more than `max_image_size` bytes is
  // InvalidImage, before anything is inflated. Every tool that takes an image out of an archive
  // (query, burn, extract, a fabric update) passes the largest flash (devices/FlashChip.h):
  // no firmware image can be bigger, and a few KiB of archive must not fill a disk or memory.
  [[nodiscard]] Result<const MfaBoard*> find_board(std::string_view psid, std::uint64_t max_image_size) const;
  [[nodiscard]] std::uint32_t stored_crc() const { return stored_crc_; }
  // Size of the unpacked DATA stream (from the xz index; nothing is decoded).
  [[nodiscard]] std::uint64_t data_unpacked_size() const { return data_unpacked_size_; }
  // Size of each chunk handed to a Sink (at most).
  static constexpr std::size_t kChunkSize = std::size_t{1} << 20;

  // Receives the unpacked image in order, in chunks of at most kChunkSize bytes.
  using Sink = std::function<Result<void>(Bytes chunk)>;
  // Called with (bytes done, bytes total) now and then: DATA bytes decoded so far out of
  // those that must be decoded (up to the end of the last wanted image).
  using Progress = std::function<void(std::uint64_t, std::uint64_t)>;

  // Streams the board's firmware image to `sink` without holding the whole DATA stream or
  // the whole image in memory.
  [[nodiscard]] Result<void> extract(const MfaBoard& board, const Sink& sink,
                                     const Progress& progress = {}) const;
  // Streams several boards' images in one pass over DATA; sinks[i] receives boards[i]'s.
  // Decoding stops as soon as the last wanted byte is out. A board without a firmware
  // image gives NotFound; a sink's error stops the pass and is returned with context.
  [[nodiscard]] Result<void> extract_many(const std::vector<const MfaBoard*>& boards,
                                          const std::vector<Sink>& sinks,
                                          const Progress& progress = {}) const;
  // Convenience: extract into a file through OutputFile (a regular file is written as
  // PATH.tmp-XXXXXX and renamed when complete, nothing left behind on error or SIGINT/SIGTERM;
  // a device or FIFO is written through; a link, directory or socket is refused).
  [[nodiscard]] Result<void> extract_to_file(const MfaBoard& board, const std::string& path,
                                             const Progress& progress = {}) const;

 private:
  std::shared_ptr<const ByteSource> source_;  // shared: reads are const and positionless
  std::uint64_t data_offset_ = 0;  // of the DATA section payload in the archive
  std::uint64_t data_size_ = 0;
  std::uint64_t data_unpacked_size_ = 0;
  bool data_xz_ = true;
  std::uint32_t stored_crc_ = 0;
  std::vector<MfaBoard> boards_;

  [[nodiscard]] Result<void> parse();  // everything open() checks, on source_
  [[nodiscard]] Result<void> parse_boards(Bytes map, Bytes toc);
  // TOC entries do not overlap and own all of DATA but kMaxUnownedDataPerEntry per entry.
  [[nodiscard]] Result<void> check_data_coverage() const;
};

}  // namespace openflint
