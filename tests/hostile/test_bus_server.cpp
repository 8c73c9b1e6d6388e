// mst server under an address-space limit: 50 concurrent clients (10 `flint q`, 40 raw protocol
// queries) through a server held to 256 MiB of address space each get an answer or a clean busy
// refusal, the server survives and its memory falls back when they end; under a limit too tight
// for its sessions' threads, the sessions that cannot start are refused with "E server busy" and
// the server goes on.
#include <signal.h>

#include <atomic>
#include <fstream>
#include <regex>
#include <thread>

#include "mtcr/remote/BusConnection.h"
#include "mtcr/remote/BusProtocol.h"
#include "tests/hostile/HostileFixture.h"
#include "core/ChildProcess.h"

namespace openflint::test {
namespace {

constexpr auto kReplyTimeout = std::chrono::seconds(20);

// A /proc/PID/status field in KiB ("VmRSS", "VmHWM", "VmSize"); -1 when absent.
long status_kib(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with(field + ":")) return std::stol(line.substr(field.size() + 1));
  return -1;
}

class BusServerLimits : public HostileTest {
 protected:
  void TearDown() override {
    if (server_ && server_->running()) server_->signal(SIGKILL);
    server_.reset();
    HostileTest::TearDown();
  }

  // `mst server --port 0 ARGS...` under `ulimit -v limit_kib` (none when 0, or under ASan, where
  // ASan's own RSS bound applies); the port, or 0 when it did not come up.
  std::uint16_t start_server(long limit_kib, const std::vector<std::string>& args) {
    const std::string limit = limit_kib > 0 && kAddressSpaceLimited ? "ulimit -v " + std::to_string(limit_kib) + " && " : "";
    std::vector<std::string> argv{"sh", "-c", limit + "exec \"$0\" \"$@\"", bin("mst").string(), "server", "--port", "0",
                                  "--audit-log", path("audit.log")};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<std::string> env;
    if (!kAddressSpaceLimited) env.push_back("ASAN_OPTIONS=" + asan_options());
    server_ = std::make_unique<ChildProcess>(background_tool(argv, env, dir_ / "server.out", dir_ / "server.err"));
    const std::regex ready("-I- serving [0-9]+ device\\(s\\) on 127\\.0\\.0\\.1:([0-9]+)");
    for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
         std::chrono::steady_clock::now() < deadline && server_->running();) {
      std::smatch m;
      const std::string err = server_->err();
      if (std::regex_search(err, m, ready)) return static_cast<std::uint16_t>(std::stoi(m[1].str()));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "the server did not come up: " << server_->err();
    return 0;
  }
  void stop_server() {
    server_->signal(SIGTERM);
    EXPECT_EQ(server_->wait_for(std::chrono::seconds(10)), std::optional<int>(0)) << server_->err();
  }
  [[nodiscard]] std::string audit() const {
    const auto bytes = read_file(dir_ / "audit.log");
    return {bytes.begin(), bytes.end()};
  }
  static std::string ask(BusConnection& c, std::string_view request) {
    if (auto sent = c.send(request); !sent) return "send failed: " + sent.error().message();
    auto reply = c.receive(kBusMaxReplyBytes, kReplyTimeout);
    return reply ? *reply : "receive failed: " + reply.error().message();
  }
  std::vector<std::string> create_devices(int n) {
    std::vector<std::string> devices;
    for (int i = 0; i < n; ++i) devices.push_back(create_device("dev" + std::to_string(i)));
    return devices;
  }
  // A served device's name as a client writes it ('/' as '@').
  static std::string client_name(std::string device) {
    for (char& ch : device)
      if (ch == '/') ch = '@';
    return device;
  }
  static std::string remote(std::uint16_t port, const std::string& device) {
    return "127.0.0.1:" + std::to_string(port) + "," + client_name(device);
  }

  std::unique_ptr<ChildProcess> server_;
};

TEST_F(BusServerLimits, FiftyConcurrentQueriesUnderTheAddressSpaceLimit) {
  // 50 connections at once: 10 `flint q` processes (a whole query: identification, the flash
  // through the gateway, the image) and 40 in-process clients asking V, O and CR-space reads
  // (cheaper than 40 more processes on a loaded 2-core host), each holding its session until all
  // 40 have their answers.
  constexpr int kTools = 10;
  constexpr int kClients = 40;
  const auto devices = create_devices(5);
  std::vector<std::string> args{"--max-sessions", "20"};
  args.insert(args.end(), devices.begin(), devices.end());
  const auto port = start_server(kAddressSpaceKiB, args);
  ASSERT_NE(port, 0);
  const pid_t pid = server_->pid();
  {
    auto c = BusConnection::connect_tcp("127.0.0.1", port, kReplyTimeout);
    ASSERT_TRUE(c.has_value()) << c.error().message();
    ASSERT_EQ(ask(*c, "V"), "O 1.4");
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // that session reaped
  const long idle_rss = status_kib(pid, "VmRSS");
  const auto start = std::chrono::steady_clock::now();
  std::vector<CommandResult> tools(kTools);
  std::vector<std::vector<std::string>> replies(kClients);
  std::atomic<int> answered_clients{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kTools; ++i)
    threads.emplace_back([&, i] {
      tools[i] = run_command({bin("flint").string(), "-d", remote(port, devices[i % devices.size()]), "--lock-timeout",
                              "5000", "q"});
    });
  for (int i = 0; i < kClients; ++i)
    threads.emplace_back([&, i] {
      auto c = BusConnection::connect_tcp("127.0.0.1", port, kReplyTimeout);
      if (!c) {
        replies[i].push_back("connect failed: " + c.error().message());
      } else if (replies[i].push_back(ask(*c, "V")); replies[i].back() == "O 1.4") {
        replies[i].push_back(ask(*c, "O 1 " + client_name(devices[i % devices.size()])));
        if (replies[i].back() == "O 0") {
          replies[i].push_back(ask(*c, "R 0xf0014"));
          replies[i].push_back(ask(*c, "B 0xf0000 64"));
        }
      }
      ++answered_clients;
      while (answered_clients.load() < kClients) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    });
  for (auto& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int answered = 0;
  int refused = 0;
  for (const auto& r : tools) {
    if (r.exit_code == 0 && r.out.find("FW Version") != std::string::npos) {
      ++answered;
    } else if (r.exit_code == 5 && r.err.starts_with("-E- ") && r.err.find("busy") != std::string::npos &&
               std::count(r.err.begin(), r.err.end(), '\n') == 1) {
      ++refused;
    } else {
      ADD_FAILURE() << "neither an answer nor a clean refusal: exit " << r.exit_code << "\n" << r.out << r.err;
    }
  }
  for (const auto& r : replies) {
    // Refused at once (the session bound), or a session: the device (or busy), its reads.
    if (r.front().starts_with("E server busy")) {
      ++refused;
      continue;
    }
    ASSERT_EQ(r.front(), "O 1.4");
    ASSERT_GE(r.size(), 2u);
    if (r[1].starts_with("E device busy")) {
      ++refused;
      continue;
    }
    ASSERT_EQ(r.size(), 4u) << r[1];
    const auto hw = parse_read_reply(r[2]);
    ASSERT_TRUE(hw.has_value()) << r[2];
    EXPECT_EQ(*hw & 0xffff, 0x1f5u);  // ConnectX-3
    EXPECT_TRUE(r[3].starts_with("O 0x")) << r[3];
    ++answered;
  }
  ASSERT_TRUE(server_->running()) << server_->err();
  const long peak_rss = status_kib(pid, "VmHWM");
  // Every session has ended; the accept loop reaps them within 100 ms and trims the heap.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const long after_rss = status_kib(pid, "VmRSS");
  std::cout << kTools + kClients << " clients in " << seconds << " s: " << answered << " answered, " << refused
            << " refused busy; server RSS idle " << idle_rss << " KiB, peak " << peak_rss << " KiB, after "
            << after_rss << " KiB\n";
  RecordProperty("server_peak_rss_kib", std::to_string(peak_rss));
  RecordProperty("server_after_rss_kib", std::to_string(after_rss));
  EXPECT_GT(answered, 0);
  EXPECT_GT(refused, 0) << "20 sessions for 50 clients: some must have been refused";
  EXPECT_EQ(answered + refused, kTools + kClients);
  EXPECT_LT(peak_rss, kAddressSpaceKiB);
  // Back near idle: the sessions' devices (4 MiB of flash each), stacks and buffers were returned.
  EXPECT_LT(after_rss, idle_rss + 8 * 1024) << "idle " << idle_rss << " KiB";
  EXPECT_NE(audit().find("refused: server busy (20 sessions, at most 20)"), std::string::npos) << audit();
  auto c = BusConnection::connect_tcp("127.0.0.1", port, kReplyTimeout);
  ASSERT_TRUE(c.has_value()) << c.error().message();
  EXPECT_EQ(ask(*c, "V"), "O 1.4");
  c = BusConnection(-1);
  stop_server();
}

TEST_F(BusServerLimits, SessionsThatCannotStartAreRefusedAndTheServerGoesOn) {
  if (!kAddressSpaceLimited) GTEST_SKIP() << "an address-space limit (ulimit -v) cannot be set under ASan";
  constexpr int kClients = 30;
  const auto devices = create_devices(2);
  // The server's own address space once it is up, measured without a limit; then a limit that
  // leaves room for a few session threads (1 MiB stacks) and not for 30.
  ASSERT_NE(start_server(0, devices), 0);
  const long base_kib = status_kib(server_->pid(), "VmSize");
  stop_server();
  ASSERT_GT(base_kib, 0);
  const auto port = start_server(base_kib + 8 * 1024, devices);
  ASSERT_NE(port, 0);
  std::vector<std::string> first_replies(kClients);
  std::vector<std::string> open_replies(kClients);
  std::atomic<int> ready{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < kClients; ++i)
    clients.emplace_back([&, i] {
      auto c = BusConnection::connect_tcp("127.0.0.1", port, kReplyTimeout);
      if (!c) {
        first_replies[i] = "connect failed: " + c.error().message();
      } else {
        first_replies[i] = ask(*c, "V");
        if (first_replies[i] == "O 1.4") open_replies[i] = ask(*c, "O 1 " + client_name(devices[i % 2]));
      }
      // Every session held until all clients have their answers: 30 at once.
      ++ready;
      while (ready.load() < kClients) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    });
  for (auto& t : clients) t.join();
  int started = 0;
  int refused = 0;
  for (int i = 0; i < kClients; ++i) {
    if (first_replies[i] == "O 1.4") {
      ++started;
      EXPECT_TRUE(open_replies[i] == "O 0" || open_replies[i].starts_with("E ")) << open_replies[i];
    } else {
      ++refused;
      EXPECT_TRUE(first_replies[i].starts_with("E server busy")) << first_replies[i];
    }
  }
  std::cout << started << " sessions started, " << refused << " refused under a " << (base_kib / 1024 + 8)
            << " MiB limit\n";
  ASSERT_TRUE(server_->running()) << server_->err() << audit();
  EXPECT_GT(started, 0);
  EXPECT_GT(refused, 0) << "the limit left room for every session: nothing was tested";
  EXPECT_NE(audit().find("refused: cannot start a session"), std::string::npos) << audit();
  // Room again once they ended: a device opens and answers.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto c = BusConnection::connect_tcp("127.0.0.1", port, kReplyTimeout);
  ASSERT_TRUE(c.has_value()) << c.error().message();
  EXPECT_EQ(ask(*c, "V"), "O 1.4");
  EXPECT_EQ(ask(*c, "O 1 " + client_name(devices[0])), "O 0");
  EXPECT_TRUE(ask(*c, "R 0xf0014").starts_with("O 0x"));
  c = BusConnection(-1);
  stop_server();
}

}  // namespace
}  // namespace openflint::test
