// mst save / mst load / mst start's save / mst restart: the saved file (its format against lspci's
// dump), a reset nobody wrapped undone by load, the refusals (bound driver, another card's file, a
// hand-edited file, a held device, declined), and the directories that cannot be used.
#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fwops/Device.h"
#include "fwops/access/SavedPciConfig.h"
#include "mtcr/pci/PciConfigFile.h"
#include "tests/pci_cli/PciServeFixture.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string text_of(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The rows ("00: b3 15 ...") of a saved file or of lspci -xxx output, first `n` of them.
std::vector<std::string> dump_rows(const std::string& text, std::size_t n) {
  std::vector<std::string> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line) && rows.size() < n)
    if (line.size() > 4 && line[2] == ':' && line[3] == ' ' && std::isxdigit(static_cast<unsigned char>(line[0])))
      rows.push_back(line);
  return rows;
}

void poke(const fs::path& function_dir, std::uint32_t offset, std::uint32_t value) {
  auto written = write_pci_config32(function_dir, offset, value);
  ASSERT_TRUE(written) << written.error().message();
}

class MstPciConfig : public PciServeFixture {
 protected:
  CommandResult mst(std::vector<std::string> args, const std::vector<std::string>& env = {}) const {
    args.insert(args.begin(), bin("mst").string());
    auto all = tool_env();
    all.insert(all.end(), env.begin(), env.end());
    return run_command(args, all);
  }
  json mst_json(std::vector<std::string> args, int expected_exit, const std::vector<std::string>& env = {}) const {
    args.insert(args.begin(), "--json");
    const auto r = mst(args, env);
    EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
    const json doc = json::parse(r.out, nullptr, false);
    EXPECT_TRUE(doc.is_object()) << r.out << r.err;
    return doc.is_object() ? doc : json::object();
  }
  std::vector<std::uint8_t> config(const std::string& bdf) const {
    auto bytes = read_pci_config(sysfs_ / "devices" / bdf);
    EXPECT_TRUE(bytes) << bytes.error().message();
    return bytes ? *bytes : std::vector<std::uint8_t>{};
  }
  fs::path saves_ = dir_ / "saved";
};

// Saved, then a reset that nobody wraps clears BAR0, the command register and the interrupt line;
// mst load shows what differs, asks, and writes them back; a second load has nothing to do.
TEST_F(MstPciConfig, SaveThenLoadUndoesAResetNobodyWrapped) {
  const auto cx4 = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  const auto cx3 = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  if (!serve({cx4, cx3}, {"--no-bar", "--reset-clears-config"})) return;
  const fs::path fn = sysfs_ / "devices" / "0000:03:00.0";
  const auto before = config("0000:03:00.0");
  ASSERT_GE(before.size(), 256u);
  ASSERT_NE(config_dword(before, 0x10) & ~0xfu, 0u) << "BAR0 is assigned";

  const json saved = mst_json({"save", "-o", saves_.string()}, 0);
  ASSERT_EQ(saved["saved"].size(), 2u) << saved.dump(2);
  EXPECT_TRUE(saved["failed"].empty());
  EXPECT_EQ(saved["saved"][0]["bdf"], "0000:03:00.0");
  EXPECT_EQ(saved["saved"][0]["device_id"], "0x1013");
  EXPECT_EQ(saved["saved"][0]["bytes"], before.size());
  EXPECT_EQ(saved["saved"][1]["device_id"], "0x1003");
  const std::string file = text_of(saves_ / "0000:03:00.0");
  EXPECT_NE(file.find("\nvendor 0x15b3\ndevice 0x1013\n"), std::string::npos) << file;
  auto parsed = read_saved_pci_config(saves_, PciAddress{0, 3, 0, 0});
  ASSERT_TRUE(parsed) << parsed.error().message();
  EXPECT_EQ(std::vector<std::uint8_t>(parsed->bytes.begin(), parsed->bytes.begin() + 0x40),
            std::vector<std::uint8_t>(before.begin(), before.begin() + 0x40));
  // The rows are lspci's: the 64-byte header as `lspci -xxx` dumps it (the oracle, when installed).
  if (have_program("lspci")) {
    const auto l = run_command({"lspci", "-A", "linux-sysfs", "-O", "sysfs.path=" + sysfs_.string(), "-s", "03:00.0",
                                "-xxx"});
    ASSERT_EQ(l.exit_code, 0) << l.err;
    EXPECT_EQ(dump_rows(file, 4), dump_rows(l.out, 4)) << file << l.out;
  }

  // The kernel's reset with nobody saving and restoring around it.
  {
    std::ofstream reset(fn / "reset");
    reset << "1";
  }
  const auto cleared = config("0000:03:00.0");
  ASSERT_EQ(config_dword(cleared, 0x10) & ~0xfu, 0u) << "the served reset clears BAR0 (--reset-clears-config)";
  ASSERT_EQ(config_dword(cleared, 0x04) & 0x6, 0u);
  const std::vector<std::string> lspci_header{"lspci", "-A", "linux-sysfs", "-O", "sysfs.path=" + sysfs_.string(),
                                              "-s", "03:00.0", "-xxx"};
  if (have_program("setpci")) {  // and the interrupt line changed by pciutils' own tool
    const auto set = run_command({"setpci", "-A", "linux-sysfs", "-O", "sysfs.path=" + sysfs_.string(), "-s", "03:00.0",
                                  "INTERRUPT_LINE=2a"});
    ASSERT_EQ(set.exit_code, 0) << set.err;
    ASSERT_EQ(config("0000:03:00.0")[0x3c], 0x2a);
  }

  const auto declined = mst({"load", "-i", saves_.string(), "03:00.0", "--no"});
  EXPECT_EQ(declined.exit_code, 7) << declined.out << declined.err;
  EXPECT_NE(declined.out.find("command 0x00000000 -> 0x00000006"), std::string::npos) << declined.out;
  EXPECT_EQ(config_dword(config("0000:03:00.0"), 0x10), config_dword(cleared, 0x10)) << "declined: nothing written";

  const json loaded = mst_json({"load", "-i", saves_.string(), "-y"}, 0);
  ASSERT_EQ(loaded["functions"].size(), 2u) << loaded.dump(2);
  const auto written = loaded["functions"][0]["written"].get<std::vector<std::string>>();
  ASSERT_FALSE(written.empty()) << loaded.dump(2);
  EXPECT_EQ(written.front(), "0000:03:00.0 BAR0");
  EXPECT_EQ(written.back(), "0000:03:00.0 command") << "the command register last";
  EXPECT_TRUE(loaded["functions"][1]["written"].empty()) << "the ConnectX-3 was not reset";
  const auto after = config("0000:03:00.0");
  for (std::uint32_t reg : {0x10u, 0x14u, 0x3cu}) EXPECT_EQ(config_dword(after, reg), config_dword(before, reg)) << reg;
  EXPECT_EQ(config_dword(after, 0x04) & 0xffff, config_dword(before, 0x04) & 0xffff);
  if (have_program("lspci")) {  // the header lspci dumps now is the one saved
    const auto l = run_command(lspci_header);
    EXPECT_EQ(dump_rows(l.out, 4), dump_rows(file, 4)) << l.out;
  }

  // Everything is as saved now: no question, nothing written.
  const auto again = mst({"load", "-i", saves_.string()});
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("-I- 0000:03:00.0: as saved, nothing written"), std::string::npos) << again.out;
  const auto q = flint({"-d", "03:00.0", "q"});
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
}

// A bound driver refuses the load unless --force; a file saved from another card (ids differ)
// and a hand-edited one that disagrees with itself are refused; nothing is written by a refusal.
TEST_F(MstPciConfig, LoadRefusesABoundDriverAnotherCardsFileAndAnEditedOne) {
  const auto cx4 = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  const auto cx3 = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  if (!serve({cx4, cx3}, {"--no-bar", "--driver", "mlx5_core"})) return;
  const fs::path fn = sysfs_ / "devices" / "0000:03:00.0";
  ASSERT_EQ(mst({"save", "-o", saves_.string()}).exit_code, 0);
  const auto before = config("0000:03:00.0");
  const auto same = mst({"load", "-i", saves_.string(), "03:00.0"});  // a driver, but nothing to write
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  poke(fn, 0x3c, 0x2a);  // the interrupt line, as a careless setpci would
  const auto changed = config("0000:03:00.0");
  ASSERT_EQ(changed[0x3c], 0x2a) << "the served config space takes the write";
  ASSERT_NE(before[0x3c], 0x2a);

  const json refused = mst_json({"load", "-i", saves_.string(), "03:00.0", "-y"}, 5);
  EXPECT_NE(refused["error"]["message"].get<std::string>().find("driver mlx5_core is bound"), std::string::npos)
      << refused.dump(2);
  EXPECT_EQ(config("0000:03:00.0")[0x3c], 0x2a) << "refused: nothing written";
  const json forced = mst_json({"load", "-i", saves_.string(), "03:00.0", "-y", "--force"}, 0);
  EXPECT_EQ(forced["functions"][0]["driver"], "mlx5_core") << forced.dump(2);
  EXPECT_EQ(forced["functions"][0]["written"], json::array({"0000:03:00.0 interrupt line"})) << forced.dump(2);
  EXPECT_EQ(config("0000:03:00.0")[0x3c], before[0x3c]);

  // The ConnectX-3's file passed off as the ConnectX-4's: consistent in itself, another card's ids.
  std::string other = text_of(saves_ / "0000:04:00.0");
  other.replace(other.find("address 0000:04:00.0"), 20, "address 0000:03:00.0");
  fs::path elsewhere = dir_ / "elsewhere";
  fs::create_directories(elsewhere);
  std::ofstream(elsewhere / "0000:03:00.0") << other;
  poke(fn, 0x3c, 0x2a);
  const auto mismatch = mst({"load", "-i", elsewhere.string(), "mt4115_pciconf0", "-y", "--force"});
  EXPECT_EQ(mismatch.exit_code, 3) << mismatch.out << mismatch.err;
  EXPECT_NE(mismatch.err.find("was saved from 15b3:1003"), std::string::npos) << mismatch.err;
  EXPECT_EQ(config("0000:03:00.0")[0x3c], 0x2a) << "refused: nothing written";

  // A device id edited in the header line alone: the file disagrees with its own bytes.
  std::string edited = text_of(saves_ / "0000:03:00.0");
  edited.replace(edited.find("device 0x1013"), 13, "device 0x1015");
  std::ofstream(elsewhere / "0000:03:00.0", std::ios::trunc) << edited;
  const auto bad = mst({"load", "-i", elsewhere.string(), "03:00.0", "-y", "--force"});
  EXPECT_EQ(bad.exit_code, 3) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("disagrees with the saved bytes"), std::string::npos) << bad.err;
}

// Another tool holding the function (a burn): load waits --lock-wait, then exit 5, nothing written.
TEST_F(MstPciConfig, LoadWaitsForAToolHoldingTheFunction) {
  const auto cx3 = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  if (!serve({cx3}, {"--no-bar"})) return;
  const fs::path fn = sysfs_ / "devices" / "0000:03:00.0";
  ASSERT_EQ(mst({"save", "-o", saves_.string(), "03:00.0"}).exit_code, 0);
  poke(fn, 0x3c, 0x2a);
  ::setenv("OPENFLINT_RUN_DIR", run_dir_.c_str(), 1);  // the same lock files as the tools
  DeviceOpenOptions options;
  options.sysfs_root = sysfs_;
  auto held = open_pci_device("pciconf-03:00.0", options);
  ASSERT_TRUE(held) << held.error().message();
  const auto busy = mst({"load", "-i", saves_.string(), "-y", "--lock-wait", "100"});
  EXPECT_EQ(busy.exit_code, 5) << busy.out << busy.err;
  EXPECT_EQ(config("0000:03:00.0")[0x3c], 0x2a);
}

// mst start saves every catalog function (a directory that cannot be used is a warning, not a
// failed start); mst restart is stop + start.
TEST_F(MstPciConfig, StartSavesAndRestartStopsAndStarts) {
  const auto cx4 = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  if (!serve({cx4}, {"--no-bar"})) return;
  const std::vector<std::string> env{"OPENFLINT_MST_DIR=" + (dir_ / "dev-mst").string()};
  const fs::path start_saves = dir_ / "mst_pci";  // the fixture's OPENFLINT_MST_SAVE_DIR
  const json started = mst_json({"start"}, 0, env);
  ASSERT_EQ(started["pci_config"]["saved"].size(), 1u) << started.dump(2);
  EXPECT_EQ(started["pci_config"]["dir"], start_saves.string());
  EXPECT_TRUE(read_saved_pci_config(start_saves, PciAddress{0, 3, 0, 0})) << "start saved what load reads";
  const auto loaded = mst({"load", "-y"});  // the default directory: what start saved
  EXPECT_EQ(loaded.exit_code, 0) << loaded.out << loaded.err;
  EXPECT_NE(loaded.out.find("Saved:     " + (start_saves / "0000:03:00.0").string()), std::string::npos) << loaded.out;

  fs::create_directories(dir_ / "blocked");
  std::ofstream(dir_ / "blocked" / "file") << "x";
  const auto warned = mst({"start", "--save-dir", (dir_ / "blocked" / "file" / "sub").string()}, env);
  EXPECT_EQ(warned.exit_code, 0) << warned.out << warned.err;
  EXPECT_NE(warned.err.find("-W- not saved for mst load: "), std::string::npos) << warned.err;
  EXPECT_NE(warned.out.find("mt4115_pciconf0"), std::string::npos) << warned.out;

  const json restarted = mst_json({"restart"}, 0, env);
  ASSERT_EQ(restarted["stopped_links"].size(), 1u) << restarted.dump(2);
  EXPECT_EQ(restarted["stopped_links"][0]["state"], "removed");
  ASSERT_EQ(restarted["links"].size(), 1u) << restarted.dump(2);
  EXPECT_EQ(restarted["links"][0]["state"], "created");
  EXPECT_TRUE(fs::is_symlink(dir_ / "dev-mst" / "mt4115_pciconf0"));
  EXPECT_EQ(restarted["pci_config"]["saved"].size(), 1u);
}

// Directories and names that cannot be used: one line, the documented exit code, nothing made.
TEST_F(MstPciConfig, BadDirectoriesAndNamesAreErrors) {
  const auto cx3 = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  if (!serve({cx3}, {"--no-bar"})) return;
  std::ofstream(dir_ / "file") << "x";
  const auto blocked = mst({"save", "-o", (dir_ / "file" / "sub").string()});
  EXPECT_EQ(blocked.exit_code, 4) << blocked.out << blocked.err;
  EXPECT_NE(blocked.err.find("-E- saving 0000:03:00.0: cannot create " + (dir_ / "file" / "sub").string()),
            std::string::npos) << blocked.err;
  const json failed = mst_json({"save", "-o", (dir_ / "file" / "sub").string()}, 4);
  EXPECT_EQ(failed["ok"], false) << failed.dump(2);
  EXPECT_EQ(failed["error"]["code"], "i/o error") << failed.dump(2);
  EXPECT_EQ(failed["failed"].size(), 1u);
  EXPECT_TRUE(failed["saved"].empty());

  const auto nothing = mst({"load", "-i", (dir_ / "none").string()});
  EXPECT_EQ(nothing.exit_code, 4) << nothing.out << nothing.err;
  EXPECT_NE(nothing.err.find("no saved configuration in " + (dir_ / "none").string()), std::string::npos) << nothing.err;
  const auto named = mst({"load", "-i", (dir_ / "none").string(), "03:00.0"});
  EXPECT_EQ(named.exit_code, 4) << named.out << named.err;
  EXPECT_NE(named.err.find("no saved configuration of 0000:03:00.0"), std::string::npos) << named.err;

  const auto sim = mst({"save", "sim:" + cx3.string()});
  EXPECT_EQ(sim.exit_code, 2) << sim.out << sim.err;
  const auto absent = mst({"save", "0000:09:00.0", "-o", saves_.string()});
  EXPECT_EQ(absent.exit_code, 4) << absent.out << absent.err;
  EXPECT_FALSE(fs::exists(saves_)) << "nothing saved, no directory made";
}

// The file format on its own: a round trip, and what the parser refuses.
TEST(SavedPciConfigFile, RoundTripsAndRefusesWhatDisagrees) {
  SavedPciConfig c{.address = PciAddress{0, 0x81, 0, 1}, .bytes = std::vector<std::uint8_t>(256)};
  for (std::size_t i = 0; i < c.bytes.size(); ++i) c.bytes[i] = static_cast<std::uint8_t>(i * 7);
  c.bytes[0] = 0xb3, c.bytes[1] = 0x15, c.bytes[2] = 0x13, c.bytes[3] = 0x10;
  const std::string text = format_saved_pci_config(c);
  EXPECT_NE(text.find("\n00: b3 15 13 10 1c 23 2a 31 38 3f 46 4d 54 5b 62 69\n"), std::string::npos) << text;
  auto back = parse_saved_pci_config(text, "f");
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(back->bytes, c.bytes);
  EXPECT_EQ(back->address, c.address);

  auto refused = [&](const std::string& t, const std::string& why) -> std::string {
    auto r = parse_saved_pci_config(t, "f");
    EXPECT_FALSE(r) << why;
    if (r) return {};
    EXPECT_EQ(r.error().code(), ErrorCode::InvalidImage) << why;
    return r.error().message();
  };
  std::string gap = text;
  gap.erase(gap.find("\n10: "), 16 * 3 + 4);  // the second row gone
  EXPECT_NE(refused(gap, "a row missing").find("row at offset 0x20 where 0x10 was expected"), std::string::npos);
  std::string twice = text;
  twice.insert(twice.find("vendor"), "vendor 0x15b3\n");
  EXPECT_NE(refused(twice, "a key twice").find("'vendor' given twice"), std::string::npos);
  std::string no_size = text;
  no_size.erase(no_size.find("size 256\n"), 9);
  EXPECT_NE(refused(no_size, "no size").find("no 'size' line"), std::string::npos);
  std::string short_file = text.substr(0, text.find("\n40: ") + 1);
  EXPECT_NE(refused(short_file, "64 bytes, size 256").find("'size 256' disagrees"), std::string::npos);
  std::string unknown = text;
  unknown.insert(unknown.find("size"), "colour blue\n");
  EXPECT_NE(refused(unknown, "an unknown key").find("unknown key lines"), std::string::npos);
  std::string stray = text + "hello there\n";
  EXPECT_NE(refused(stray, "text after the rows").find("not a row of 16 hex bytes"), std::string::npos);
  std::string bad_byte = text;
  bad_byte.replace(bad_byte.find("\n00: b3") + 5, 2, "zz");
  EXPECT_FALSE(refused(bad_byte, "a byte that is not hex").empty());
}

}  // namespace
}  // namespace openflint::test
