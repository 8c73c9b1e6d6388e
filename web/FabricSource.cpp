// FabricSource: the live fabric, asked with the fabric library's calls (as ibls, ibfwmgr, ibmon).
#include "web/FabricSource.h"

#include <optional>

#include "fabric/OutOfBand.h"
#include "fabric/PortCounters.h"

namespace openflint {
namespace {

// As ibmon --watch does: one MAD channel and one PerfMgt port, opened at first use and kept, and
// a discovery (libibnetdisc, on a port of its own) for each sweep. Ports opened and closed around
// each request instead, beside kept ones, broke ibsim's umad2sim (a crash, then classes that
// could no longer be registered).
class LiveFabricSource final : public FabricSource {
 public:
  LiveFabricSource(std::string ca, int port, std::vector<RemoteHost> hosts)
      : ca_(std::move(ca)), port_(port), hosts_(std::move(hosts)) {}

  Result<FabricSweep> sweep() override { return discover_fabric_links(ca_, port_); }

  std::map<std::uint64_t, std::string> running_firmware(const std::vector<FabricNode>& nodes) override {
    auto opened = channel();
    if (!opened) return {};  // the listing stands without it
    return running_fw_versions(nodes, *opened);
  }

  Result<FirmwareInventory> inventory() override {
    OF_ASSIGN(const std::vector<FabricNode> nodes, discover_fabric(ca_, port_));
    OF_ASSIGN(const std::shared_ptr<MadChannel> mads, channel());
    FirmwareInventory out;
    out.hosts = scan_hosts(hosts_);
    out.nodes = take_inventory(nodes, out.hosts, mads);
    return out;
  }

  Result<HealthSample> sample(const FabricSweep& swept) override {
    if (!perf_) {
      OF_ASSIGN(PerfMgtPort perf, PerfMgtPort::open(ca_, port_));
      perf_.emplace(std::move(perf));
    }
    OF_ASSIGN(const std::shared_ptr<MadChannel> mads, channel());
    return sample_health(swept, *perf_, mads, true);
  }

  Result<std::vector<NodeUpdate>> update(const std::vector<NodeFirmware>& nodes, const ImageSet& images,
                                         const FabricUpdateOptions& options) override {
    OF_ASSIGN(const std::shared_ptr<MadChannel> mads, channel());
    return update_fabric(nodes, images, mads, options);
  }

 private:
  Result<std::shared_ptr<MadChannel>> channel() {
    if (!channel_) {
      OF_ASSIGN(channel_, MadChannel::open(ca_, port_));
    }
    return channel_;
  }

  std::string ca_;
  int port_ = 0;
  std::vector<RemoteHost> hosts_;
  std::optional<PerfMgtPort> perf_;
  std::shared_ptr<MadChannel> channel_;
};

}  // namespace

std::unique_ptr<FabricSource> live_fabric_source(std::string ca, int port, std::vector<RemoteHost> hosts) {
  return std::make_unique<LiveFabricSource>(std::move(ca), port, std::move(hosts));
}

}  // namespace openflint
