// FabricServer: an ibsim-compatible fabric in one thread: routes the MADs of umad2sim clients and answers for every node.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fabricsim/MadRequestHandler.h"
#include "fabricsim/SimTopology.h"

namespace openflint {

struct FabricServerStats {
  std::uint64_t mads = 0;          // requests received from clients
  std::uint64_t device_mads = 0;   // answered by a node's device (vendor classes and attributes)
  std::uint64_t subnet_mads = 0;   // answered by a node's subnet agent (NodeInfo, PortInfo, ...)
  std::uint64_t unsupported = 0;   // answered with "unsupported" (no device there, unknown attribute)
  std::uint64_t bounced = 0;       // sent back with status 110: no route, or a class nobody handles
  std::uint64_t lost = 0;          // answers a client never took (its queue stayed full for 5 s)
  std::uint64_t clients = 0;       // attached now
};

// Speaks the server side of ibsim's socket protocol (fabricsim/IbsimWire.h), so the real
// umad2sim preload and everything above it (libibumad, libibmad, libibnetdisc, flint, ibfwmgr)
// attach as to ibsim with the same IBSIM_SOCKNAME/SIM_HOST. Unlike ibsim it answers every node
// itself: standard SMPs from the topology (fabricsim/SubnetAgent.h), vendor MADs from the node's
// device handler, with LIDs assigned up front (no subnet manager needed; LID-routed MADs go
// straight to the LID's node). Any number of clients (up to kMaxClients) attach to any nodes.
class FabricServer {
 public:
  static constexpr std::size_t kMaxClients = 256;

  // `handlers[i]` answers the vendor MADs of topology node i (null: none there); both must
  // outlive the server. Clients without SIM_HOST attach to `default_node`.
  [[nodiscard]] static Result<std::unique_ptr<FabricServer>> start(const SimTopology& topology,
                                                                   std::vector<MadRequestHandler*> handlers,
                                                                   const std::string& socket_name,
                                                                   std::size_t default_node);
  ~FabricServer();
  FabricServer(const FabricServer&) = delete;
  FabricServer& operator=(const FabricServer&) = delete;

  // Serves control requests and MADs for up to `ms` milliseconds (returns early once `stop` is set).
  [[nodiscard]] Result<void> serve_for(int ms, const std::atomic<bool>& stop);
  [[nodiscard]] const FabricServerStats& stats() const { return stats_; }

 private:
  struct Client {
    int fd = -1;
    std::uint32_t pid = 0;
    std::size_t node = 0;
    unsigned port = 0;
    bool issm = false;
  };
  FabricServer(const SimTopology& topology, std::vector<MadRequestHandler*> handlers, std::string socket_name,
               std::size_t default_node);

  void control();
  void packets(std::size_t client);
  void answer(std::size_t client, void* request);
  void drop_client(std::size_t client);
  [[nodiscard]] bool connect_client(void* ctl);

  const SimTopology& topology_;
  std::vector<MadRequestHandler*> handlers_;
  std::string socket_;
  std::size_t default_node_;
  int ctl_fd_ = -1;
  std::vector<Client> clients_;
  FabricServerStats stats_;
};

}  // namespace openflint
