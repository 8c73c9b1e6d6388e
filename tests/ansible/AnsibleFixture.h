// AnsibleFixture: the openflint.firmware collection built and installed into a temp dir (offline),
// an inventory of local hosts each with its own simulated devices, ansible-playbook runs.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/support/TestSupport.h"

namespace openflint::test {

// One host's line of ansible-playbook's PLAY RECAP.
struct HostRecap {
  int ok = -1;
  int changed = -1;
  int unreachable = -1;
  int failed = -1;
};

// The collection's source tree in the repository.
std::filesystem::path collection_source();
// Ansible's settings for a run whose files live under `dir`: the collections installed there,
// temp dirs there, no colour, no user configuration.
std::vector<std::string> ansible_env(const std::filesystem::path& dir);
// `ansible-galaxy collection build` into dir/build; the tarball's path (empty on failure).
std::filesystem::path build_collection(const std::filesystem::path& dir);
// Builds and installs the collection under dir/collections (offline); false on failure.
bool install_collection(const std::filesystem::path& dir);
// The PLAY RECAP lines of ansible-playbook's output, by host.
std::map<std::string, HostRecap> play_recap(const std::string& out);

class AnsibleFixture : public ::testing::Test {
 protected:
  void SetUp() override;

  [[nodiscard]] std::vector<std::string> ansible_env() const { return test::ansible_env(dir_.path()); }
  bool install_collection() { return test::install_collection(dir_.path()); }

  // Hosts named `hosts`, each with `devices_per_host[i]` simulated ConnectX-3 devices burned with
  // the old sample image; writes dir_/hosts.ini (ansible_connection=local).
  void make_inventory(const std::vector<std::string>& hosts, const std::vector<int>& devices_per_host);
  // The simulated device directories of a host.
  [[nodiscard]] std::vector<std::filesystem::path> devices_of(const std::string& host) const;

  // ansible-playbook -i hosts.ini PLAYBOOK -e openflint_bin_dir=... EXTRA...
  CommandResult playbook(const std::string& playbook, const std::vector<std::string>& extra);
  static std::map<std::string, HostRecap> recap(const std::string& out) { return play_recap(out); }

  TempDir dir_;
  std::vector<std::string> hosts_;
  std::map<std::string, std::vector<std::filesystem::path>> devices_;
};

}  // namespace openflint::test
