// DeviceFabricFixture: simulated devices (hcasim) served on one ibsim fabric; clients run on Hca1.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "devices/DeviceCatalog.h"
#include "image/Fs3Writer.h"
#include "image/SectionType.h"
#include "fabricsim/SimFabric.h"
#include "tests/support/IbsimFabric.h"
#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

struct FabricDevice {
  std::string node;   // "Switch1", "SwitchK" (K >= 2, in order) or "HcaN" (N >= 2)
  std::string model;  // hcasim model
  std::filesystem::path image;  // pre-burned (empty: blank flash)
};

// A small FS3 image (one 4 KiB code section) so burns over MADs take about a second.
inline std::vector<std::uint8_t> small_fs3_image(std::uint16_t minor, const std::string& psid = "MT_2190110032",
                                                 std::uint32_t hw_id = 0x209, std::size_t code_bytes = 4096,
                                                 std::uint64_t base_guid = 0x0002c90300b00000ull) {
  Fs3ImageSpec s;
  s.fw_version = {12, minor, 1000};
  s.release_date = ReleaseDate{2024, 2, 1};
  s.psid = psid;
  s.description = "openflint in-band test image";
  s.pci_device_id = 4115;
  s.supported_hw_ids = {hw_id};
  s.base_guid = base_guid;
  s.base_mac = 0x0002c9b00000ull;
  std::vector<std::uint8_t> code(code_bytes);
  for (std::size_t i = 0; i < code.size(); ++i) code[i] = static_cast<std::uint8_t>(i * 7 + minor);
  s.sections.push_back({section_type::kMainCode, code});
  auto image = write_fs3_image(s);
  EXPECT_TRUE(image) << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

class DeviceFabricFixture : public IbsimFabricTest {
 protected:
  DeviceFabricFixture() : IbsimFabricTest({"ibsim", "opensm", "ibaddr"}) {}

  std::filesystem::path device_dir(const std::string& node) const { return dir_.path() / "devices" / node; }

  // Creates each device with hcasim, then the fabric (Hca1 = the client) and one responder each.
  // `node_guids`: ibsim node GUIDs to set (SimFabric::Options::node_guids).
  void bring_up(const std::vector<FabricDevice>& devices, const std::map<std::string, std::uint64_t>& node_guids = {}) {
    SimFabric::Options options;
    options.node_guids = node_guids;
    options.hcas = 1;
    options.hca_device_ids = {0x1013};
    for (const auto& d : devices) {
      auto info = find_device_by_sim_model(d.model);
      ASSERT_TRUE(info) << info.error().message();
      if (d.node == SimFabric::kSwitch) {
        options.switch_device_id = (*info)->pci_device_id;
      } else if (d.node.starts_with("Switch")) {  // Switch2, Switch3, ... in that order
        options.extra_switch_device_ids.push_back((*info)->pci_device_id);
      } else {
        ++options.hcas;
        options.hca_device_ids.push_back((*info)->pci_device_id);
      }
      std::vector<std::string> argv{bin("hcasim").string(), "create", "--model", d.model, device_dir(d.node).string()};
      if (!d.image.empty()) argv.insert(argv.end(), {"--image", d.image.string()});
      auto made = run_command(argv);
      ASSERT_EQ(made.exit_code, 0) << made.out << made.err;
    }
    ASSERT_NO_FATAL_FAILURE(start_fabric(options));
    for (const auto& d : devices) {
      start_responder(d.node);
      if (HasFatalFailure()) return;
      auto lid = fabric_->lid_of(d.node);
      ASSERT_TRUE(lid) << lid.error().message();
      lids_[d.node] = *lid;
    }
  }

  void start_responder(const std::string& node, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{bin("ibsim-responder").string(), "--sim", device_dir(node).string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    auto pid = fabric_->start_responder(node, argv);
    ASSERT_TRUE(pid) << pid.error().message();
  }

  // Stops the responder (it saves the device) and loads the saved device.
  std::unique_ptr<sim::SimDevice> stop_and_load(const std::string& node) {
    auto rc = fabric_->stop_responder(node);
    EXPECT_TRUE(rc && *rc == 0) << (rc ? std::to_string(*rc) : rc.error().message());
    auto device = sim::SimDevice::load_state(device_dir(node));
    EXPECT_TRUE(device) << device.error().message();
    return device ? std::move(*device) : nullptr;
  }

  CapturedRun run(std::vector<std::string> argv, int timeout_ms = 300000) {
    return run_on(SimFabric::hca(1), argv, timeout_ms);
  }
  CapturedRun flint(const std::string& node, std::vector<std::string> args) {
    std::vector<std::string> argv{bin("flint").string(), "-d", lid_name(node)};
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv);
  }

  std::string lid_name(const std::string& node) { return "lid-" + std::to_string(lids_[node]); }

  // `flint -d lid-N --json q` of a node: its document (null on a failed run or bad output).
  nlohmann::json query(const std::string& node) {
    const auto q = flint(node, {"--json", "q"});
    EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
    auto j = nlohmann::json::parse(q.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << q.out;
    return j;
  }

  // `ibfwmgr update --images DIR --yes --json` on the fabric: it exits 0, and every node it
  // updated took its identity from the device (and went `path`, when given). Returns how many
  // nodes it updated, or -1 when the run failed or printed no report.
  int update_keeping_identity(const std::filesystem::path& images, const std::string& path = {}) {
    const auto up = run({bin("ibfwmgr").string(), "update", "--images", images.string(), "--yes", "--json"});
    EXPECT_EQ(up.exit_code, 0) << up.out << up.err;
    const auto report = nlohmann::json::parse(up.out, nullptr, false);
    EXPECT_FALSE(report.is_discarded()) << up.out;
    if (up.exit_code != 0 || report.is_discarded()) return -1;
    int updated = 0;
    for (const auto& n : report["nodes"]) {
      if (n["status"] != "updated") continue;
      ++updated;
      if (!path.empty()) {
        EXPECT_EQ(n["path"], path) << n.dump(2);
      }
      EXPECT_EQ(n["identity_from"], "device") << n.dump(2);
    }
    return updated;
  }

  TempDir dir_;
  std::map<std::string, std::uint16_t> lids_;
};

}  // namespace openflint::test
