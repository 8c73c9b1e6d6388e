// OutputFile: writes a named output without ever replacing a special file, and leaves no temp file behind.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "core/TempPathRegistration.h"

namespace openflint {

// What `path` names decides how it is written:
//  - nothing yet, or a regular file: a temporary file next to it, renamed over it by commit()
//    (readers never see half a file; an error, a throw or SIGINT/SIGTERM removes the temp);
//  - a character device or a FIFO (`-o /dev/null`, a pipe): written through, never replaced
//    (a FIFO nobody reads is refused rather than waited on);
//  - a symbolic link, directory, socket or block device: refused (Io) before anything is
//    created — a link is not followed so an output cannot land somewhere unexpected.
class OutputFile {
 public:
  // Output: a file the user named, as above. State: a file a tool keeps in a directory that
  // others may write (a simulator's flash.bin and state.json, a record in /dev/mst): only a
  // regular file is replaced (a device or FIFO there is refused like a link, not written
  // through), and commit() renames without fsync (rewritten by every command; a crash loses
  // at most the last one).
  enum class Role { Output, State };

  [[nodiscard]] static Result<OutputFile> create(const std::string& path, const std::string& what = "output",
                                                 Role role = Role::Output);

  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) = delete;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // uncommitted: the temp file is removed, the target left as it was

  [[nodiscard]] Result<void> write(Bytes bytes);
  // A temp file only (not writes_through()): rewrites bytes already written (a header whose
  // fields are known at the end) and reads them back (a digest over what was written). Writing
  // past what write() wrote, or a write-through output, is InvalidArgument.
  [[nodiscard]] Result<void> write_at(std::uint64_t offset, Bytes bytes);
  [[nodiscard]] Result<void> read_at(std::uint64_t offset, std::span<std::uint8_t> out) const;
  // Flushes and moves the bytes into place (rename for a file; nothing more for write-through).
  [[nodiscard]] Result<void> commit();

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] bool writes_through() const { return tmp_.empty(); }

 private:
  OutputFile(int fd, std::string path, std::string tmp);
  int fd_ = -1;
  bool sync_ = true;
  std::string path_;
  std::string tmp_;  // empty when writing through to a device or FIFO
  TempPathRegistration registration_;
  bool committed_ = false;
  std::uint64_t written_ = 0;
};

// OutputFile::create + write + commit.
[[nodiscard]] Result<void> write_output_file(const std::string& path, Bytes bytes,
                                             const std::string& what = "output");

}  // namespace openflint
