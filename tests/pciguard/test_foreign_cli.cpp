// Every tool and subcommand that takes a device name, tried on functions that are not the
// toolkit's (ForeignTree.h) by each name form: exit 2, one "-E-" line naming what the function is
// (vendor, device, class, as lspci -nn names it), every file of the tree byte-identical with its mtime unchanged (no
// config write, no BAR mapping written through), no lock file, no output file. A catalog function
// in the same kind of tree passes the check (and its config file then changes: the detector works).
#include <gtest/gtest.h>

#include "tests/pciguard/ForeignTree.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::size_t function;  // index into foreign_functions()
  std::string name;      // the device name as typed
  std::string form;      // for the test name
};

std::string short_bdf(const std::string& bdf) { return bdf.substr(5); }  // "00:00.0": domain 0 implied

std::vector<Case> all_cases() {
  std::vector<Case> out;
  const auto& fs = foreign_functions();
  for (std::size_t i = 0; i < fs.size(); ++i) {
    const std::string bdf = fs[i].bdf;
    out.push_back({i, short_bdf(bdf), "Bdf"});
    out.push_back({i, "pciconf-" + bdf, "Pciconf"});
    out.push_back({i, "pcicr-" + short_bdf(bdf), "Pcicr"});
    if (std::string(fs[i].label) == "EthernetNic") out.push_back({i, kForeignRdmaName, "Rdma"});
    if (fs[i].vendor == kPciVendorMellanox) {  // MST names count vendor 0x15b3 functions by device id
      out.push_back({i, "mt" + std::to_string(fs[i].device) + "_pciconf0", "MstConf"});
      out.push_back({i, "/dev/mst/mt" + std::to_string(fs[i].device) + "_pci_cr0", "MstCr"});
    }
  }
  return out;
}

// Each command line that opens DEV, as a user would type it (prompts answered yes).
std::vector<std::vector<std::string>> commands(const std::string& dev, const fs::path& files) {
  const std::string image = sample_image("connectx3-new").string();
  const std::string desc = std::string(OPENFLINT_SOURCE_DIR) + "/firmware-samples/connectx3/new.fwdesc";
  const std::string ini = std::string(OPENFLINT_SOURCE_DIR) + "/firmware-samples/connectx3/new.ini";
  const std::string out = (files / "out.bin").string(), in = (files / "in.bin").string();
  const std::string flint = bin("flint").string(), mst = bin("mst").string(), fwburn = bin("fwburn").string();
  return {
      {flint, "-d", dev, "q"},
      {flint, "-d", dev, "v"},
      {flint, "-d", dev, "-i", image, "-y", "burn"},
      {flint, "-d", dev, "-i", image, "-y", "--nofs", "burn"},
      {flint, "-d", dev, "-i", image, "-y", "bb"},
      {flint, "-d", dev, "-i", image, "bc"},
      {flint, "-d", dev, "-y", "erase", "0x0"},
      {flint, "-d", dev, "rw", "0x0"},
      {flint, "-d", dev, "-y", "ww", "0x0", "0x12345678"},
      {flint, "-d", dev, "-y", "wwne", "0x0", "0x12345678"},
      {flint, "-d", dev, "rb", "0x0", "16", out},
      {flint, "-d", dev, "-y", "wb", in, "0x0"},
      {flint, "-d", dev, "-y", "wbne", "0x0", "4", "0x12345678"},
      {flint, "-d", dev, "ri", out},
      {flint, "-d", dev, "-y", "reset"},
      {flint, "-d", dev, "-y", "swreset"},
      {flint, "-d", dev, "-y", "sg", "0x0002c90300a1b2c0"},
      {flint, "-d", dev, "-y", "sv", "vsd"},
      {flint, "-d", dev, "cs"},
      {flint, "-d", dev, "hw", "query"},
      {flint, "-d", dev, "-y", "clear_semaphore"},
      {fwburn, "-image", image, "-dev", dev},
      {fwburn, "-fw", desc, "-conf", ini, "-dev", dev},
      {mst, "mread", dev, "0xf0014"},
      {mst, "mwrite", dev, "0x0", "0x1"},
      {mst, "dump", dev},
      {mst, "dump", dev, "--full"},
      {mst, "reset", dev, "-y"},
      {mst, "reset", dev, "-y", "--level", "4"},
      {mst, "config", dev, "query"},
      {mst, "config", dev, "-y", "set", "SRIOV_EN=1"},
      {mst, "config", dev, "-y", "reset"},
      {mst, "vpd", dev},
      {mst, "reg", dev, "--reg-name", "MGIR", "-g"},
      {mst, "reg", dev, "--reg-name", "MFRL", "-s", "reset_trigger=8", "-y"},
      {mst, "i2c", dev, "read", "0x50", "0x0", "1"},
      {mst, "i2c", dev, "write", "0x50", "0x0", "0a"},
      {mst, "server", "--stdio", "--audit-log", "/dev/null", dev},
      {mst, "save", dev, "-o", (files / "saved").string()},
      {mst, "load", dev, "-i", (files / "saved").string(), "-y", "--force"},
  };
}

std::string joined(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + fs::path(a).filename().string();
  return s;
}

class ForeignFunctions : public ::testing::TestWithParam<Case> {
 protected:
  ForeignFunctions() {
    fs::create_directories(run_dir_);
    fs::create_directories(files_);
    write_file(files_ / "in.bin", {1, 2, 3, 4});
  }
  [[nodiscard]] std::vector<std::string> env() const {
    return {"OPENFLINT_SYSFS_ROOT=" + tree_.root().string(), "OPENFLINT_RUN_DIR=" + run_dir_.string(),
            "OPENFLINT_MST_DIR=" + (scratch_ / "mst").string(), "OPENFLINT_PCI_IDS=" + tree_.ids_file().string()};
  }

  ForeignTree tree_;
  TempDir scratch_;
  fs::path run_dir_ = scratch_ / "run";
  fs::path files_ = scratch_ / "files";
};

TEST_P(ForeignFunctions, EveryToolRefusesWithOneLineAndTouchesNothing) {
  const ForeignFunction& f = foreign_functions()[GetParam().function];
  const auto before = tree_.snapshot();
  for (const auto& argv : commands(GetParam().name, files_)) {
    SCOPED_TRACE(joined(argv) + " (" + GetParam().name + ")");
    const auto r = run_command(argv, env());
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.err.starts_with("-E- ")) << r.err;
    EXPECT_NE(r.err.find(f.lspci), std::string::npos) << "does not name the function as lspci -nn does (" << f.lspci
                                                      << "): " << r.err;
    EXPECT_NE(r.err.find(f.vendor == kPciVendorMellanox ? "the catalog does not list" : "not a Mellanox adapter"),
              std::string::npos)
        << r.err;
    // fwburn -fw/-conf generates the image first and says so; nothing else prints before the refusal.
    const bool generates = argv[1] == "-fw";
    EXPECT_TRUE(generates ? r.out.starts_with("-I- Generated ") && std::count(r.out.begin(), r.out.end(), '\n') == 1
                          : r.out.empty())
        << r.out;
    EXPECT_TRUE(tree_.snapshot() == before) << "a file of the tree changed (bytes or mtime)";
    EXPECT_TRUE(fs::is_empty(run_dir_)) << "something (a lock file?) was created under OPENFLINT_RUN_DIR";
    EXPECT_FALSE(fs::exists(files_ / "out.bin")) << "an output file was written";
    EXPECT_FALSE(fs::exists(scratch_ / "mst"));
  }
}

INSTANTIATE_TEST_SUITE_P(AllForms, ForeignFunctions, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& p) {
                           return std::string(foreign_functions()[p.param.function].label) + p.param.form;
                         });

// A catalog function (ConnectX-3, vendor 0x15b3, device 4099) laid out the same way passes the
// check: the tool goes on to the 0x58 window, writes into this plain config file (which answers
// no hw id) and takes its lock — what the refused functions were spared, seen by the same snapshot.
TEST(ForeignFunctionsControl, ACatalogFunctionPassesTheCheckAndIsWritten) {
  ForeignTree tree;
  const ForeignFunction cx3{"ConnectX3", "0000:81:00.0", kPciVendorMellanox, 4099, 0x020000, 0x00, 0, 0x15b3, 0x0050, 0, 0x100000, 0x14220c, ""};
  tree.add(cx3);
  TempDir scratch;
  const fs::path run_dir = scratch / "run";
  const auto before = tree.snapshot();
  const auto r = run_command({bin("mst").string(), "mread", "pciconf-81:00.0", "0xf0014"},
                             {"OPENFLINT_SYSFS_ROOT=" + tree.root().string(), "OPENFLINT_RUN_DIR=" + run_dir.string()});
  EXPECT_EQ(r.err.find("refused"), std::string::npos) << r.err;
  EXPECT_FALSE(tree.snapshot() == before) << "the config file of a catalog function was not written: " << r.err;
  EXPECT_TRUE(fs::exists(run_dir / "locks")) << r.err;
}

}  // namespace
}  // namespace openflint::test
