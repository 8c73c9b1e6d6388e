// Tests: the Linux kernel's own PLDM firmware update engine (lib/pldmfw/pldmfw.c from Debian's linux-source-6.1,
// built at test time with the shims in kernel/pldm_shim) takes the packages flint writes: for each PSID its
// record matching picks the one component whose bytes our reader extracts, from the generated samples and the
// real vendor images; and every mutated package our reader accepts, the kernel accepts alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "image/Crc32.h"
#include "image/PldmFormat.h"
#include "image/PldmPackage.h"
#include "image/PldmWriter.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

const std::filesystem::path kLinuxSource = "/usr/src/linux-source-6.1.tar.xz";
const std::string kTop = "linux-source-6.1/";

void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Extracts the kernel's PLDM engine from the installed tarball into `dir` and builds the harness
// there; returns its path (empty after a test failure).
std::filesystem::path build_pldm_harness(const std::filesystem::path& dir) {
  auto untar = run_command({"tar", "-xJf", kLinuxSource.string(), "-C", dir.string(), kTop + "lib/pldmfw/pldmfw.c",
                            kTop + "lib/pldmfw/pldmfw_private.h", kTop + "include/linux/pldmfw.h"});
  EXPECT_EQ(untar.exit_code, 0) << untar.err;
  if (untar.exit_code != 0) return {};
  const auto top = dir / kTop;
  const auto kernel = std::filesystem::path(OPENFLINT_SOURCE_DIR) / "tests/packages_interop/kernel";
  const auto harness = dir / "pldm_harness";
  auto cc = run_command({"cc", "-std=gnu11", "-O1", "-w", "-I" + (kernel / "pldm_shim").string(),
                         "-I" + (top / "include").string(), "-I" + (top / "lib/pldmfw").string(), "-o", harness.string(),
                         (kernel / "pldm_harness.c").string(), (top / "lib/pldmfw/pldmfw.c").string()});
  EXPECT_EQ(cc.exit_code, 0) << cc.err;
  return cc.exit_code == 0 ? harness : std::filesystem::path{};
}

struct FlintImage {
  std::filesystem::path path;
  std::string psid;
};

class PldmKernel : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kLinuxSource))
      GTEST_SKIP() << kLinuxSource << " is absent: install Debian's linux-source-6.1 to run the kernel's PLDM engine";
    if (!have_program("cc") || !have_program("tar")) GTEST_SKIP() << "needs cc and tar";
    harness_ = build_pldm_harness(dir_.path());
    ASSERT_FALSE(harness_.empty());
  }

  // flint archive create --format pldm of `images` into `package`, then the kernel per PSID: exactly
  // one component flashed, identifier 1, the image's bytes, and the bytes flint extracts.
  void expect_kernel_picks_each(const std::vector<FlintImage>& images, const std::filesystem::path& package) {
    std::vector<std::string> create = {"archive", "create", "--format", "pldm", "--bins"};
    for (const auto& image : images) create.push_back(image.path.string());
    create.insert(create.end(), {"-o", package.string()});
    auto made = run_tool("flint", create);
    ASSERT_EQ(made.exit_code, 0) << made.out << made.err;
    const auto out = dir_ / "kernel-out";
    std::filesystem::create_directories(out);
    std::vector<std::string> argv = {harness_.string(), package.string(), out.string()};
    for (const auto& image : images) argv.push_back(image.psid);
    auto kernel = run_command(argv);
    ASSERT_EQ(kernel.exit_code, 0) << kernel.out << kernel.err;
    std::ostringstream expected;
    for (std::size_t i = 0; i < images.size(); ++i)
      expected << images[i].psid << ' ' << i << " 1 " << std::filesystem::file_size(images[i].path) << '\n';
    EXPECT_EQ(kernel.out, expected.str());
    for (std::size_t i = 0; i < images.size(); ++i) {
      const auto image = read_file(images[i].path);
      EXPECT_EQ(read_file(out / (images[i].psid + "." + std::to_string(i) + ".bin")), image) << images[i].psid;
      const auto ours = dir_ / "ours.bin";
      auto extract = run_tool("flint", {"-i", package.string(), "archive", "extract", "--psid", images[i].psid, "-o", ours.string()});
      ASSERT_EQ(extract.exit_code, 0) << extract.err;
      EXPECT_EQ(read_file(ours), image) << images[i].psid;
    }
    ++packages_checked_;
  }

  TempDir dir_;
  std::filesystem::path harness_;
  int packages_checked_ = 0;
};

TEST_F(PldmKernel, KernelPicksOurComponentForEverySamplePsid) {
  // Every FS3/FS4 sample the build generates (the rest are refused by create), new and old ones
  // in separate packages (they share PSIDs).
  for (const char* generation : {"-new", "-old"}) {
    std::vector<FlintImage> images;
    std::set<std::string> psids;
    const auto samples = sample_image("connectx4-new").parent_path();
    if (!std::filesystem::exists(samples)) GTEST_SKIP() << "samples not built (target firmware_samples)";
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::directory_iterator(samples))
      if (entry.path().extension() == ".bin" && entry.path().stem().string().ends_with(generation)) paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    for (const auto& path : paths) {
      auto q = run_tool("flint", {"-i", path.string(), "--json", "q"});
      ASSERT_EQ(q.exit_code, 0) << path << q.err;
      const auto doc = nlohmann::json::parse(q.out, nullptr, false);
      const std::string format = doc.value("image_type", "");
      if (format != "FS3" && format != "FS4") continue;
      const std::string psid = doc.value("psid", "");
      if (psid.empty() || !psids.insert(psid).second) continue;
      images.push_back({path, psid});
    }
    ASSERT_GE(images.size(), 3u) << generation;
    expect_kernel_picks_each(images, dir_ / (std::string("samples") + generation + ".fwpkg"));
  }
  EXPECT_EQ(packages_checked_, 2);
  // A PSID the package does not carry: the kernel matches no record (-ENOENT), as our reader finds none.
  auto missing = run_command({harness_.string(), (dir_ / "samples-new.fwpkg").string(), dir_.path().string(), "MT_NOT_THERE"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.out, "MT_NOT_THERE error -2\n");
  auto ours = run_tool("flint", {"-i", (dir_ / "samples-new.fwpkg").string(), "--psid", "MT_NOT_THERE", "q"});
  EXPECT_NE(ours.exit_code, 0);
}

TEST_F(PldmKernel, KernelPicksOurComponentForRealBoards) {
  const auto real = real_firmware_dir();
  if (!real) GTEST_SKIP() << "../shared/firmware/real is absent";
  // The newest archive of each family (Spectrum, Spectrum-2, ...: the name up to "-rel-"), its
  // first three boards: each board is a 16-32 MiB image and a later board costs a longer xz decode.
  std::map<std::string, std::filesystem::path> newest;
  for (const auto& entry : std::filesystem::directory_iterator(*real)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".mfa" || name.find("-rel-") == std::string::npos) continue;
    auto& slot = newest[name.substr(0, name.find("-rel-"))];
    if (slot.empty() || slot.filename().string() < name) slot = entry.path();
  }
  for (const auto& [family, archive] : newest) {
    auto list = run_tool("flint", {"-i", archive.string(), "--json", "archive", "list"});
    ASSERT_EQ(list.exit_code, 0) << list.err;
    const auto boards = nlohmann::json::parse(list.out)["boards"];
    std::vector<FlintImage> images;
    for (std::size_t i = 0; i < std::min<std::size_t>(3, boards.size()); ++i) {
      const std::string psid = boards[i]["psid"];
      const auto out = dir_ / (family + "-" + psid + ".bin");
      auto extract = run_tool("flint", {"-i", archive.string(), "archive", "extract", "--psid", psid, "-o", out.string()});
      ASSERT_EQ(extract.exit_code, 0) << extract.err;
      images.push_back({out, psid});
    }
    expect_kernel_picks_each(images, dir_ / (family + ".fwpkg"));
    for (const auto& image : images) std::filesystem::remove(image.path);
    std::filesystem::remove(dir_ / (family + ".fwpkg"));
    std::cout << "kernel pldmfw took the package of " << images.size() << " boards of " << archive.filename().string() << '\n';
  }
  EXPECT_FALSE(newest.empty());
}

// Byte mutations of a three-record package's header (the CRC re-fixed, so both parsers get past
// it): whenever our reader accepts one, the kernel accepts it too and, for every PSID our reader
// finds in a record the kernel's PCI match also takes, flashes exactly that record's components.
TEST_F(PldmKernel, WhateverOurReaderAcceptsTheKernelReadsAlike) {
  std::vector<PldmInput> inputs;
  for (int i = 0; i < 3; ++i)
    inputs.push_back({.psid = "MT_00000000" + std::to_string(40 + i), .image = std::vector<std::uint8_t>(300 + 50 * i, static_cast<std::uint8_t>(i + 1)), .version = "1.2." + std::to_string(i)});
  auto base = build_pldm(inputs);
  ASSERT_TRUE(base.has_value()) << base.error().message();
  const std::size_t header_size = (*base)[17] | ((*base)[18] << 8);
  int accepted = 0;
  int checked_psids = 0;
  for (std::size_t at = 16; at + 4 < header_size; ++at) {
    for (const std::uint8_t flip : {std::uint8_t{0x01}, std::uint8_t{0x80}}) {
      auto bytes = *base;
      bytes[at] ^= flip;
      const std::size_t size = bytes[17] | (bytes[18] << 8);
      if (size < 8 || size > bytes.size()) continue;
      const std::uint32_t crc = crc32(Bytes(bytes).first(size - 4));
      for (int b = 0; b < 4; ++b) bytes[size - 4 + b] = static_cast<std::uint8_t>(crc >> (8 * b));
      auto ours = PldmPackage::from_bytes(bytes);
      if (!ours) continue;
      ++accepted;
      const auto file = dir_ / "mutant.fwpkg";
      write_bytes(file, bytes);
      for (const auto& record : ours->records()) {
        bool printable = !record.psid.empty();
        for (const char c : record.psid) printable = printable && c > 0x20 && c < 0x7f;
        // The kernel's PCI match against the harness's device (vendor 0x15b3, device 0x1017,
        // subsystem 0x15b3/0x0001): the last descriptor of each PCI type counts, 0 is "any".
        const std::pair<std::uint16_t, unsigned> pci[] = {{pldm::kDescPciVendorId, 0x15b3},
                                                          {pldm::kDescPciDeviceId, 0x1017},
                                                          {pldm::kDescPciSubsystemVendorId, 0x15b3},
                                                          {pldm::kDescPciSubsystemId, 0x0001}};
        bool pci_match = true;
        for (const auto& [type, device_value] : pci) {
          unsigned value = 0;
          for (const auto& d : record.descriptors)
            if (d.type == type) value = d.data[0] | (d.data[1] << 8);
          pci_match = pci_match && (value == 0 || value == device_value);
        }
        if (!printable || !pci_match) continue;
        auto first = ours->find_record(record.psid);  // both take the first record that matches
        if (!first || *first != &record) continue;
        auto kernel = run_command({harness_.string(), file.string(), dir_.path().string(), record.psid});
        ASSERT_EQ(kernel.exit_code, 0) << "byte " << at << " ^ " << int{flip} << ": " << kernel.out << kernel.err;
        std::ostringstream expected;
        for (const std::uint16_t index : record.components)
          expected << record.psid << ' ' << index << ' ' << ours->components()[index].identifier << ' '
                   << ours->components()[index].size << '\n';
        EXPECT_EQ(kernel.out, expected.str()) << "byte " << at << " ^ " << int{flip};
        ++checked_psids;
      }
    }
  }
  std::cout << "mutants our reader accepted: " << accepted << ", PSIDs cross-checked with the kernel: " << checked_psids << '\n';
  EXPECT_GT(accepted, 20);
}

TEST_F(PldmKernel, BothRefuseALyingCrcAndComponentsOutsideTheFile) {
  auto base = build_pldm({{.psid = "MT_0000000050", .image = std::vector<std::uint8_t>(4096, 0x5A), .version = "1.0"}});
  ASSERT_TRUE(base.has_value());
  const std::size_t header_size = (*base)[17] | ((*base)[18] << 8);
  auto lying = *base;
  lying[header_size - 2] ^= 0x10;
  write_bytes(dir_ / "lying.fwpkg", lying);
  auto kernel = run_command({harness_.string(), (dir_ / "lying.fwpkg").string(), dir_.path().string(), "MT_0000000050"});
  EXPECT_EQ(kernel.out, "MT_0000000050 error -74\n");  // EBADMSG
  auto ours = run_tool("flint", {"-i", (dir_ / "lying.fwpkg").string(), "archive", "list"});
  EXPECT_NE(ours.exit_code, 0);
  EXPECT_NE(ours.err.find("checksum"), std::string::npos) << ours.err;

  auto short_file = *base;
  short_file.resize(short_file.size() - 1);  // the component now ends past the file
  write_bytes(dir_ / "short.fwpkg", short_file);
  kernel = run_command({harness_.string(), (dir_ / "short.fwpkg").string(), dir_.path().string(), "MT_0000000050"});
  EXPECT_EQ(kernel.out, "MT_0000000050 error -14\n");  // EFAULT
  ours = run_tool("flint", {"-i", (dir_ / "short.fwpkg").string(), "archive", "list"});
  EXPECT_NE(ours.exit_code, 0);
}

}  // namespace
}  // namespace openflint::test
