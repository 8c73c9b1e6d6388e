// Tools that need no fabric start on a host without rdma-core: fwburn -wrimage and flint -i IMG v
// run with libibumad, libibmad and libibnetdisc made unloadable; an in-band name then fails with
// the install hint and exit 6 (NotSupported); and the executables no longer list the libraries
// as start-up dependencies (readelf), which the build before UmadLibrary/IbDiagLibrary did.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "mtcr/inband/UmadLibrary.h"
#include "tests/fwburn/Samples.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRdmaLibraries[] = {"libibumad.so.3", "libibmad.so.5", "libibnetdisc.so.5"};

// The files the dynamic loader would load for kRdmaLibraries (symbolic links resolved).
std::set<std::string> rdma_library_files() {
  std::set<std::string> files;
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64", "/lib64", "/usr/lib",
                          "/usr/lib/aarch64-linux-gnu"}) {
    for (const char* name : kRdmaLibraries) {
      std::error_code ec;
      const fs::path real = fs::canonical(fs::path(dir) / name, ec);
      if (!ec) files.insert(real.string());
    }
  }
  return files;
}

// Runs argv in a private user + mount namespace in which every rdma-core library file above reads
// as empty (/dev/null bound over it): to the dynamic loader and to dlopen() it is not there. (The
// loader's --library-path/--inhibit-cache cannot hide a library: the system directories are always
// searched.) nullopt when this host cannot make such a namespace.
std::optional<test::CommandResult> run_without_rdma(const std::vector<std::string>& argv) {
  if (test::run_command({"unshare", "-rm", "true"}).exit_code != 0) return std::nullopt;
  std::string script;
  for (const auto& f : rdma_library_files()) script += "mount --bind /dev/null '" + f + "' || exit 97; ";
  script += "exec \"$@\"";
  std::vector<std::string> full{"unshare", "-rm", "sh", "-c", script, "sh"};
  full.insert(full.end(), argv.begin(), argv.end());
  auto r = test::run_command(full);
  if (r.exit_code == 97) return std::nullopt;
  return r;
}

TEST(WithoutRdma, TheToolsDoNotNeedRdmaCoreToStart) {
  for (const char* tool : {"fwburn", "flint"}) {
    const auto r = test::run_command({"readelf", "-d", test::bin(tool).string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_NE(r.out.find("(NEEDED)"), std::string::npos) << r.out;  // the listing is there
    for (const char* lib : kRdmaLibraries) EXPECT_EQ(r.out.find(lib), std::string::npos) << tool << " needs " << lib;
  }
}

TEST(WithoutRdma, WrimageAndImageVerifyRunAndInBandSaysWhatIsMissing) {
  ASSERT_FALSE(rdma_library_files().empty()) << "rdma-core is installed on every build host (its headers are needed)";
  test::TempDir dir;
  const auto probe = run_without_rdma({"sh", "-c", "test ! -s " + *rdma_library_files().begin()});
  if (!probe) GTEST_SKIP() << "no user + mount namespace here (unshare -rm)";
  ASSERT_EQ(probe->exit_code, 0) << "the library is not hidden: " << probe->err;

  const auto samples = test::all_samples();
  const auto it = std::find_if(samples.begin(), samples.end(), [](const auto& s) { return s.label() == "connectx4-new"; });
  ASSERT_NE(it, samples.end());
  const auto out = dir / "cx4.bin";
  const auto gen = run_without_rdma({test::bin("fwburn").string(), "-fw", it->desc.string(), "-conf", it->ini.string(),
                                     "-wrimage", out.string()});
  ASSERT_TRUE(gen);
  ASSERT_EQ(gen->exit_code, 0) << gen->out << gen->err;
  EXPECT_TRUE(fs::exists(out));

  const auto verify = run_without_rdma({test::bin("flint").string(), "-i", out.string(), "v"});
  ASSERT_TRUE(verify);
  EXPECT_EQ(verify->exit_code, 0) << verify->out << verify->err;
  EXPECT_NE(verify->out.find("FW image verification succeeded"), std::string::npos) << verify->out;

  // In-band: the library is loaded only now, and its absence is exit 6 with the install hint.
  const auto inband = run_without_rdma({test::bin("flint").string(), "-d", "lid-1", "q"});
  ASSERT_TRUE(inband);
  EXPECT_EQ(inband->exit_code, 6) << inband->out << inband->err;
  EXPECT_NE(inband->err.find("in-band access needs rdma-core's libibumad (apt install libibumad3)"), std::string::npos)
      << inband->err;
  const auto burn_inband = run_without_rdma({test::bin("fwburn").string(), "-image", out.string(), "-dev", "lid-1"});
  ASSERT_TRUE(burn_inband);
  EXPECT_EQ(burn_inband->exit_code, 6) << burn_inband->out << burn_inband->err;
  EXPECT_NE(burn_inband->err.find("apt install libibumad3"), std::string::npos) << burn_inband->err;
}

TEST(WithoutRdma, AMissingLibraryIsNotSupportedWithTheLoadersReason) {
  auto lib = UmadLibrary::load("libibumad-openflint-absent.so.3");
  ASSERT_FALSE(lib);
  EXPECT_EQ(lib.error().code(), ErrorCode::NotSupported);
  EXPECT_NE(lib.error().message().find("in-band access needs rdma-core's libibumad (apt install libibumad3): "),
            std::string::npos)
      << lib.error().message();
  EXPECT_NE(lib.error().message().find("libibumad-openflint-absent.so.3"), std::string::npos) << lib.error().message();
  // The real one loads and resolves every function UmadPort calls.
  auto real = UmadLibrary::load(UmadLibrary::kSoname);
  ASSERT_TRUE(real) << real.error().message();
  EXPECT_NE(real->table().recv, nullptr);
  EXPECT_NE(real->table().get_mad_addr, nullptr);
}

}  // namespace
}  // namespace openflint
