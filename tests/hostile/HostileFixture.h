// HostileFixture: a temp dir with a small simulated ConnectX-3, a valid FS2 image and generators of special files.
#pragma once

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "image/Fs2Writer.h"
#include "image/GphSections.h"
#include "tests/hostile/HostileRunner.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

// A small, valid FS2 image for a ConnectX-3 (hw id 0x1f5).
inline std::vector<std::uint8_t> hostile_fs2_image(std::uint16_t minor = 42) {
  Fs2ImageSpec s;
  s.fw_version = FwVersion{2, minor, 5000};
  s.release_date = ReleaseDate{2019, 9, 23};
  s.psid = "MT_1090120019";
  s.vsd = "openflint hostile";
  s.base_guid = 0x0002c90300a1b2c0ull;
  s.base_mac = 0x0002c9a1b2c0ull;
  s.supported_hw_ids = {0x1f5};
  s.sections.push_back({gph::kDdr, random_bytes(8192, 7), 0});
  s.sections.push_back({gph::kCnf, std::vector<std::uint8_t>(256, 0x42), 0});
  s.sections.push_back({gph::kJmp, std::vector<std::uint8_t>(16, 0x01), 0});
  auto image = write_fs2_image(s);
  if (!image) ADD_FAILURE() << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

struct SpecialFile {
  std::string kind;
  std::string path;
};

class HostileTest : public ::testing::Test {
 protected:
  // The figure for the closing note: the peak memory of any tool this test ran.
  void TearDown() override {
    RecordProperty("peak_tool_rss_kib", std::to_string(peak_tool_rss_kib().load()));
    if (have_gnu_time()) std::cout << "peak tool RSS: " << peak_tool_rss_kib().load() << " KiB\n";
    else std::cout << "peak tool RSS not measured: no " << kGnuTime << "\n";
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::vector<std::uint8_t>& bytes) const {
    write_file(dir_ / name, bytes);
    return path(name);
  }
  // A ConnectX-3 with a small flash (4 MiB unless named) holding a valid image at offset 0;
  // returns "sim:PATH".
  std::string create_device(const std::string& name = "dev", const std::string& chip = "N25Q032A") {
    const std::string img = write(name + ".img", hostile_fs2_image());
    CommandResult r = run_command({bin("hcasim").string(), "create", "--model", "connectx3", path(name), "--flash",
                                   chip, "--image", img});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return "sim:" + path(name);
  }
  std::vector<std::uint8_t> flash_of(const std::string& name = "dev") const {
    return read_file(dir_ / name / "flash.bin");
  }

  // One of each kind of non-regular file a tired administrator may name as an input:
  // a directory, a FIFO without a writer, character devices that read empty and endless, a
  // socket, and a symlink to a FIFO.
  std::vector<SpecialFile> special_files() const {
    std::vector<SpecialFile> files;
    const std::string d = path("a-directory");
    std::filesystem::create_directories(d);
    files.push_back({"directory", d});
    const std::string fifo = path("a-fifo");
    if (::mkfifo(fifo.c_str(), 0600) == 0) files.push_back({"FIFO", fifo});
    else ADD_FAILURE() << "mkfifo: " << std::strerror(errno);
    // Private nodes (null: reads empty, zero: reads endless): a tool that replaces its input or
    // output — the bug class under test — must not be able to destroy the system's /dev/null.
    // Without the right to mknod (not root), the system's nodes stand in: they are only named
    // as inputs here, never as outputs.
    for (const auto& [name, minor] : {std::pair<const char*, unsigned>{"a-null-device", 3}, {"a-zero-device", 5}}) {
      const std::string node = path(name);
      const bool made = ::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0;
      files.push_back({"character device", made ? node : (minor == 3 ? "/dev/null" : "/dev/zero")});
    }
    const std::string sock = path("a-socket");
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (sock.size() < sizeof addr.sun_path) {
      std::memcpy(addr.sun_path, sock.c_str(), sock.size() + 1);
      if (::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0) files.push_back({"socket", sock});
    }
    ::close(fd);
    const std::string link = path("a-link-to-fifo");
    std::filesystem::create_symlink(fifo, link);
    files.push_back({"FIFO", link});
    return files;
  }

  // A sparse file of `size` bytes (no disk space used): a file too large to be any input.
  std::string sparse_file(const std::string& name, std::uint64_t size) const {
    const std::string p = path(name);
    { write_file(p, {}); }
    std::filesystem::resize_file(p, size);
    return p;
  }

  TempDir dir_;
};

}  // namespace openflint::test
