// ibadm start|status|stop|restart as processes (no fabric): a bus server of a simulated device and a name server,
// flint -d name:NODE through them, stale pid files, bad configs, and the systemd unit checked by systemd-analyze.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <tuple>
#include <nlohmann/json.hpp>

#include "fabric/ServiceProcess.h"
#include "image/Fs3Writer.h"
#include "image/SectionType.h"
#include "tests/support/TestSupport.h"
#include "tests/support/LoopbackPort.h"

namespace openflint::test {
namespace {

using nlohmann::json;

constexpr std::uint64_t kServedGuid = 0x0002c90300d10000ull;

std::vector<std::uint8_t> image_with_guid(std::uint64_t guid) {
  Fs3ImageSpec s;
  s.fw_version = {12, 28, 1000};
  s.release_date = ReleaseDate{2024, 2, 1};
  s.psid = "MT_2190110032";
  s.description = "ibadm test image";
  s.pci_device_id = 4115;
  s.supported_hw_ids = {0x209};
  s.base_guid = guid;
  s.base_mac = 0x0002c9d10000ull;
  s.sections.push_back({section_type::kMainCode, std::vector<std::uint8_t>(4096, 0x5a)});
  auto image = write_fs3_image(s);
  EXPECT_TRUE(image) << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  write_file(path, std::vector<std::uint8_t>(text.begin(), text.end()));
}

class IbadmService : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir_ / "served.bin", image_with_guid(kServedGuid));
    const auto made = run_command({bin("hcasim").string(), "create", "--model", "connectx4", device_.string(), "--image",
                                   (dir_ / "served.bin").string()});
    ASSERT_EQ(made.exit_code, 0) << made.out << made.err;
    name_port_ = unused_loopback_port();
    ASSERT_NE(name_port_, 0);
    write_text(dir_ / "names", "oob-1 0x0002c90300d10000\n");
    write_text(dir_ / "ibadm.hosts", "# none: the name server asks this host's own bus server\n");
    write_config("");
  }
  void TearDown() override {
    (void)ibadm({"stop"});
    // Whatever a failed test left: only a process that is still the service the pid file names.
    const auto run = dir_.path() / "run";
    for (const auto& [file, program, sub] : {std::tuple{"bus-server.pid", bin("mst"), "server"},
                                             std::tuple{"name-server.pid", bin("ibadm"), "name-server"}}) {
      const ServiceStatus s = service_status(run / file, program.string(), sub);
      if (s.state == ServiceState::Running && s.pid != ::getpid()) ::kill(s.pid, SIGKILL);
    }
  }

  void write_config(const std::string& extra) {
    write_text(config_, "# written by the test\n"
                        "run_dir = run\n"
                        "bus_server = yes\n"
                        "bus_server_port = 0\n"
                        "bus_server_devices = sim:" + device_.string() + "\n"
                        "name_server = yes\n"
                        "name_server_port = " + std::to_string(name_port_) + "\n"
                        "sweep = no\n"
                        "hosts = ibadm.hosts\n"
                        "names = names\n" + extra);
  }

  CommandResult ibadm(std::vector<std::string> args) {
    args.insert(args.begin(), bin("ibadm").string());
    return run_command(args, {"OPENFLINT_IBADM_CONF=" + config_.string(), "OPENFLINT_NAME_SERVER="});
  }
  json ibadm_json(std::vector<std::string> args, int expected_rc) {
    args.push_back("--json");
    const auto r = ibadm(args);
    EXPECT_EQ(r.exit_code, expected_rc) << r.out << r.err;
    auto j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
    return j;
  }
  static json service(const json& doc, const std::string& name) {
    if (doc.contains("services"))
      for (const auto& s : doc["services"])
        if (s["name"] == name) return s;
    return json::object();
  }
  CommandResult flint(const std::string& device) {
    return run_command({bin("flint").string(), "-d", device, "q"},
                       {"OPENFLINT_IBADM_CONF=" + config_.string(), "OPENFLINT_NAME_SERVER="});
  }

  TempDir dir_;
  std::filesystem::path device_ = dir_.path() / "served";
  std::filesystem::path config_ = dir_.path() / "ibadm.conf";
  std::uint16_t name_port_ = 0;
};

TEST_F(IbadmService, StartServesNamesStatusReportsAndStopLeavesNoProcess) {
  const json started = ibadm_json({"start"}, 0);
  const json bus = service(started, "bus-server");
  const json names = service(started, "name-server");
  ASSERT_EQ(bus["action"], "started") << started.dump(2);
  ASSERT_EQ(names["action"], "started") << started.dump(2);
  const pid_t bus_pid = bus["pid"].get<pid_t>();
  const pid_t names_pid = names["pid"].get<pid_t>();
  EXPECT_TRUE(process_alive(bus_pid));
  EXPECT_TRUE(process_alive(names_pid));
  EXPECT_NE(bus["address"].get<std::string>().find("127.0.0.1:"), std::string::npos) << "port 0: the bound port recorded";
  EXPECT_EQ(names["address"], "127.0.0.1:" + std::to_string(name_port_));
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "run" / "bus-server.pid"));

  // flint resolves the name through the name server (its address from the config) and opens
  // the device out-of-band through the bus server.
  const auto q = flint("name:oob-1");
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_NE(q.out.find("12.28.1000"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("MT_2190110032"), std::string::npos) << q.out;
  const auto unknown = flint("name:no-such-node");
  EXPECT_EQ(unknown.exit_code, 4) << unknown.err;
  EXPECT_NE(unknown.err.find("no node named no-such-node"), std::string::npos) << unknown.err;
  const auto by_guid = ibadm({"names", "0x0002c90300d10000"});
  EXPECT_EQ(by_guid.exit_code, 0) << by_guid.err;
  EXPECT_NE(by_guid.out.find("oob-1"), std::string::npos) << by_guid.out;

  const json status = ibadm_json({"status"}, 0);
  const json bus_status = service(status, "bus-server");
  EXPECT_EQ(bus_status["state"], "running") << status.dump(2);
  EXPECT_EQ(bus_status["pid"], bus_pid);
  EXPECT_EQ(bus_status["devices"], json::array({"sim:" + device_.string()})) << status.dump(2);
  EXPECT_TRUE(bus_status["clients"].is_array()) << status.dump(2);
  const json names_status = service(status, "name-server");
  EXPECT_EQ(names_status["state"], "running");
  EXPECT_EQ(names_status["entries"], 1) << status.dump(2);

  const json again = ibadm_json({"start"}, 0);
  EXPECT_EQ(service(again, "bus-server")["action"], "already running") << again.dump(2);
  EXPECT_EQ(service(again, "name-server")["pid"], names_pid);

  const json stopped = ibadm_json({"stop"}, 0);
  EXPECT_EQ(service(stopped, "bus-server")["action"], "stopped") << stopped.dump(2);
  EXPECT_EQ(service(stopped, "name-server")["action"], "stopped") << stopped.dump(2);
  EXPECT_FALSE(process_alive(bus_pid)) << "bus server " << bus_pid << " left running";
  EXPECT_FALSE(process_alive(names_pid)) << "name server " << names_pid << " left running";
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "run" / "bus-server.pid"));
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "run" / "name-server.pid"));
  const json after = ibadm_json({"status"}, 1);
  EXPECT_EQ(service(after, "bus-server")["state"], "stopped") << after.dump(2);
}

TEST_F(IbadmService, StalePidFilesDoNotBlockStart) {
  // A pid that ended (a child reaped) and a live pid that is another program (this test).
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ::waitpid(child, nullptr, 0);
  std::filesystem::create_directories(dir_.path() / "run");
  write_text(dir_.path() / "run" / "bus-server.pid", std::to_string(child) + "\n");
  write_text(dir_.path() / "run" / "name-server.pid", std::to_string(::getpid()) + "\n");
  const json before = ibadm_json({"status"}, 1);
  EXPECT_EQ(service(before, "bus-server")["state"], "stale") << before.dump(2);
  EXPECT_EQ(service(before, "name-server")["state"], "stale") << before.dump(2);
  const json started = ibadm_json({"start"}, 0);
  EXPECT_EQ(service(started, "bus-server")["action"], "started") << started.dump(2);
  EXPECT_TRUE(service(started, "bus-server").contains("stale_pid_file")) << started.dump(2);
  EXPECT_EQ(service(started, "name-server")["action"], "started") << started.dump(2);
  EXPECT_NE(service(started, "name-server")["pid"], ::getpid());
  const json restarted = ibadm_json({"restart"}, 0);
  EXPECT_EQ(restarted["services"].size(), 4u) << "two stops, two starts: " << restarted.dump(2);
  EXPECT_EQ(ibadm({"stop"}).exit_code, 0);
  EXPECT_TRUE(process_alive(::getpid())) << "stop signals only its own services";
}

TEST_F(IbadmService, BadConfigLinesAreUsageErrors) {
  write_config("bogus_key = 1\n");
  const auto r = ibadm({"start"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(config_.string() + ":11: unknown key 'bogus_key'"), std::string::npos) << r.err;
  write_config("name_server = perhaps\n");
  const auto twice = ibadm({"status"});
  EXPECT_EQ(twice.exit_code, 2) << twice.err;
  EXPECT_NE(twice.err.find(":11: name_server given twice (first on line 6)"), std::string::npos) << twice.err;
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "run")) << "nothing started";
  const auto missing = run_command({bin("ibadm").string(), "status", "--config", (dir_ / "none.conf").string()});
  EXPECT_EQ(missing.exit_code, 4) << missing.err;
}

TEST_F(IbadmService, ABusServerThatCannotStartIsReported) {
  write_text(config_, "run_dir = run\nbus_server = yes\nbus_server_port = 0\nbus_server_devices = sim:" +
                          (dir_ / "nothing-here").string() + "\nbus_server_allow = not-a-cidr\n");
  const json started = ibadm_json({"start"}, 1);
  const json bus = service(started, "bus-server");
  EXPECT_EQ(bus["state"], "stopped") << started.dump(2);
  EXPECT_TRUE(bus.contains("error")) << started.dump(2);
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "run" / "bus-server.pid"));
}

TEST(IbadmNames, WithoutANameServerTheErrorSaysHowToConfigureOne) {
  TempDir dir;
  write_text(dir / "ibadm.conf", "bus_server = no\n");
  const auto r = run_command({bin("flint").string(), "-d", "name:spine-1", "q"},
                             {"OPENFLINT_IBADM_CONF=" + (dir / "ibadm.conf").string(), "OPENFLINT_NAME_SERVER="});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_NE(r.err.find("no name server is configured"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("OPENFLINT_NAME_SERVER"), std::string::npos) << r.err;
  // A configured one that does not run: an I/O error naming where it was looked for.
  const auto down = run_command({bin("flint").string(), "-d", "name:spine-1", "q"},
                                {"OPENFLINT_NAME_SERVER=127.0.0.1:" + std::to_string(unused_loopback_port())});
  EXPECT_EQ(down.exit_code, 4) << down.err;
  EXPECT_NE(down.err.find("name server 127.0.0.1:"), std::string::npos) << down.err;
}

TEST(IbadmUnit, SystemdAnalyzeVerifies) {
  if (!have_program("systemd-analyze")) GTEST_SKIP() << "systemd-analyze is not installed";
  TempDir dir;
  std::string unit = read_text(std::filesystem::path(OPENFLINT_SOURCE_DIR) / "packaging/systemd/openflint-ibadm.service");
  ASSERT_FALSE(unit.empty());
  // The installed path, /usr/bin/ibadm, is the build's here (verify checks that it is executable).
  for (std::size_t at; (at = unit.find("/usr/bin/ibadm")) != std::string::npos;) unit.replace(at, 14, bin("ibadm").string());
  write_text(dir / "openflint-ibadm.service", unit);
  const auto r = run_command({"systemd-analyze", "verify", "--man=no", (dir / "openflint-ibadm.service").string()});
  if (r.exit_code != 0 && (r.err.find("Failed to") != std::string::npos && r.err.find("openflint-ibadm") == std::string::npos))
    GTEST_SKIP() << "systemd-analyze is not usable here: " << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "") << "no warning about the unit";
}

}  // namespace
}  // namespace openflint::test
