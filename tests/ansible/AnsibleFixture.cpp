// AnsibleFixture: builds and installs the collection, makes simulated hosts, runs playbooks.
#include "tests/ansible/AnsibleFixture.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

namespace openflint::test {

void AnsibleFixture::SetUp() {
  for (const char* tool : {"ansible-playbook", "ansible-galaxy", "ansible-doc"}) {
    if (!have_program(tool)) GTEST_SKIP() << tool << " is not installed (scripts/setup.sh installs ansible-core)";
  }
}

std::filesystem::path collection_source() {
  return std::filesystem::path(OPENFLINT_SOURCE_DIR) / "ansible" / "openflint" / "firmware";
}

std::vector<std::string> ansible_env(const std::filesystem::path& dir) {
  // Nothing from the user's ~/.ansible or an ansible.cfg nearby; no Galaxy server is contacted.
  return {"ANSIBLE_CONFIG=" + (dir / "ansible.cfg").string(),
          "ANSIBLE_HOME=" + (dir / "home").string(),
          "ANSIBLE_LOCAL_TEMP=" + (dir / "tmp").string(),
          "ANSIBLE_COLLECTIONS_PATH=" + (dir / "collections").string(),
          "ANSIBLE_PIPELINING=1",
          "ANSIBLE_NOCOLOR=1",
          "ANSIBLE_RETRY_FILES_ENABLED=0",
          "ANSIBLE_DEPRECATION_WARNINGS=0"};
}

std::filesystem::path build_collection(const std::filesystem::path& dir) {
  std::ofstream(dir / "ansible.cfg") << "[defaults]\n";
  const auto out = dir / "build";
  std::filesystem::create_directories(out);
  auto r = run_command({"ansible-galaxy", "collection", "build", collection_source().string(), "--output-path",
                        out.string()},
                       ansible_env(dir));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    if (entry.path().filename().string().starts_with("openflint-firmware-")) return entry.path();
  }
  ADD_FAILURE() << "no openflint-firmware-*.tar.gz in " << out << ": " << r.out;
  return {};
}

bool install_collection(const std::filesystem::path& dir) {
  const auto tarball = build_collection(dir);
  if (tarball.empty()) return false;
  auto r = run_command({"ansible-galaxy", "collection", "install", "--offline", tarball.string(), "-p",
                        (dir / "collections").string()},
                       ansible_env(dir));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const bool installed =
      std::filesystem::exists(dir / "collections/ansible_collections/openflint/firmware/plugins/modules/device_burn.py");
  EXPECT_TRUE(installed) << r.out << r.err;
  return r.exit_code == 0 && installed;
}

void AnsibleFixture::make_inventory(const std::vector<std::string>& hosts, const std::vector<int>& devices_per_host) {
  hosts_ = hosts;
  std::ostringstream ini;
  ini << "[hcas]\n";
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    std::string names;
    for (int d = 0; d < devices_per_host[h]; ++d) {
      const auto path = dir_ / (hosts[h] + "-dev" + std::to_string(d));
      auto r = run_tool("hcasim", {"create", "--model", "connectx3", path.string(), "--image",
                                   sample_image("connectx3-old").string()});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      devices_[hosts[h]].push_back(path);
      names += std::string(names.empty() ? "" : ",") + "\"sim:" + path.string() + "\"";
    }
    ini << hosts[h] << " openflint_device_names='[" << names << "]'\n";
  }
  ini << "[hcas:vars]\nansible_connection=local\nansible_python_interpreter=/usr/bin/python3\n";
  std::ofstream(dir_ / "hosts.ini") << ini.str();
}

std::vector<std::filesystem::path> AnsibleFixture::devices_of(const std::string& host) const {
  auto it = devices_.find(host);
  return it == devices_.end() ? std::vector<std::filesystem::path>{} : it->second;
}

CommandResult AnsibleFixture::playbook(const std::string& playbook, const std::vector<std::string>& extra) {
  std::vector<std::string> argv{"ansible-playbook", "-i", (dir_ / "hosts.ini").string(), playbook,
                                "-e", "openflint_bin_dir=" + bin("flint").parent_path().string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto start = std::chrono::steady_clock::now();
  auto r = run_command(argv, ansible_env());
  // The wall time of each run, for the folder's time budget (COST).
  std::string what = std::filesystem::path(playbook).filename().string();
  for (const auto& e : extra) what += " " + e;
  std::cout << "[ ansible  ] " << what << ": exit " << r.exit_code << ", "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s\n";
  return r;
}

std::map<std::string, HostRecap> play_recap(const std::string& out) {
  std::map<std::string, HostRecap> hosts;
  const auto start = out.find("PLAY RECAP");
  if (start == std::string::npos) return hosts;
  static const std::regex line(R"((\S+)\s+: ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+))");
  std::istringstream in(out.substr(start));
  std::string text;
  std::smatch m;
  while (std::getline(in, text)) {
    if (!std::regex_search(text, m, line)) continue;
    hosts[m[1]] = HostRecap{std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4]), std::stoi(m[5])};
  }
  return hosts;
}

}  // namespace openflint::test
