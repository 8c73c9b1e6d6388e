// FabricServer: ibsim's control and MAD datagrams, served from a topology and per-node device handlers.
#include "fabricsim/FabricServer.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "fabricsim/IbsimWire.h"
#include "fabricsim/SubnetAgent.h"
#include "mtcr/inband/MadFormat.h"

namespace openflint {

namespace {

namespace w = ibsim_wire;
constexpr std::uint32_t kBounce = 110;  // ETIMEDOUT: what ibsim puts in a request nobody took

socklen_t abstract_name(sockaddr_un& a, const std::string& name) {
  std::memset(&a, 0, sizeof a);
  a.sun_family = AF_UNIX;
  const std::size_t n = std::min(name.size(), sizeof(a.sun_path) - 2);
  std::memcpy(a.sun_path + 1, name.data(), n);  // sun_path[0] = 0: the abstract namespace
  // ibsim and umad2sim count the name's terminating NUL in the address length: so do we.
  return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + n + 1);
}

int bound_socket(const std::string& name) {
  const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_un a{};
  const socklen_t len = abstract_name(a, name);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), len) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The response bits of a request answered in place (MadRequestHandler::handle does the same for
// the vendor MADs): R set, the status (DR SMPs: the D bit and the hop pointer too).
void make_response(std::uint8_t* m, std::uint16_t status) {
  m[mad::kOffMethod] = static_cast<std::uint8_t>((m[mad::kOffMethod] & 0x7f) | mad::kResponseBit);
  if (m[mad::kOffClass] == mad::kClassSmpDirected) {
    mad::put16(m, mad::kOffStatus, static_cast<std::uint16_t>(0x8000 | (status & 0x7fff)));
    m[mad::kOffHopPointer] = 0;
  } else {
    mad::put16(m, mad::kOffStatus, status);
  }
}

}  // namespace

FabricServer::FabricServer(const SimTopology& topology, std::vector<MadRequestHandler*> handlers,
                           std::string socket_name, std::size_t default_node)
    : topology_(topology), handlers_(std::move(handlers)), socket_(std::move(socket_name)),
      default_node_(default_node), clients_(kMaxClients) {}

Result<std::unique_ptr<FabricServer>> FabricServer::start(const SimTopology& topology,
                                                          std::vector<MadRequestHandler*> handlers,
                                                          const std::string& socket_name, std::size_t default_node) {
  if (handlers.size() != topology.nodes().size() || default_node >= topology.nodes().size())
    return make_error(ErrorCode::InvalidArgument, "fabric server: one handler slot per node and a default node");
  std::unique_ptr<FabricServer> s(new FabricServer(topology, std::move(handlers), socket_name, default_node));
  s->ctl_fd_ = bound_socket(socket_name + ":ctl");
  if (s->ctl_fd_ < 0)
    return make_error(ErrorCode::Busy, "fabric server: cannot bind @" + socket_name + ":ctl (" + std::strerror(errno) + ")");
  return s;
}

FabricServer::~FabricServer() {
  for (std::size_t i = 0; i < clients_.size(); ++i) drop_client(i);
  if (ctl_fd_ >= 0) ::close(ctl_fd_);
}

void FabricServer::drop_client(std::size_t i) {
  if (clients_[i].fd < 0) return;
  ::close(clients_[i].fd);
  clients_[i] = Client{};
  --stats_.clients;
}

Result<void> FabricServer::serve_for(int ms, const std::atomic<bool>& stop) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  std::vector<pollfd> fds;
  std::vector<std::size_t> owners;
  while (!stop.load()) {
    fds.assign(1, pollfd{ctl_fd_, POLLIN, 0});
    owners.assign(1, 0);
    for (std::size_t i = 0; i < clients_.size(); ++i) {
      if (clients_[i].fd < 0) continue;
      fds.push_back(pollfd{clients_[i].fd, POLLIN, 0});
      owners.push_back(i);
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    const int n = ::poll(fds.data(), fds.size(), static_cast<int>(std::min<long long>(left.count(), 100)));
    if (n < 0 && errno != EINTR) return make_error(ErrorCode::Io, std::string("fabric server: poll: ") + std::strerror(errno));
    if (n <= 0) continue;
    if ((fds[0].revents & POLLIN) != 0) control();
    for (std::size_t k = 1; k < fds.size(); ++k)
      if ((fds[k].revents & (POLLIN | POLLERR)) != 0) packets(owners[k]);
  }
  return {};
}

bool FabricServer::connect_client(void* raw) {
  auto& ctl = *static_cast<w::Ctl*>(raw);
  w::ClientInfo info{};
  std::memcpy(&info, ctl.data, sizeof info);
  info.node[sizeof(info.node) - 1] = '\0';
  std::size_t slot = 0;
  while (slot < clients_.size() && clients_[slot].fd >= 0) ++slot;
  if (slot == clients_.size()) {  // full: free the slots of processes that died without a goodbye
    for (std::size_t i = 0; i < clients_.size(); ++i)
      if (::kill(static_cast<pid_t>(clients_[i].pid), 0) != 0 && errno == ESRCH) drop_client(i);
    slot = 0;
    while (slot < clients_.size() && clients_[slot].fd >= 0) ++slot;
  }
  const std::size_t node = info.node[0] != '\0' ? topology_.find(info.node) : default_node_;
  if (slot == clients_.size() || node == SimTopologyNode::kNone) return false;
  const int fd = bound_socket(socket_ + ":out" + std::to_string(slot));
  if (fd < 0) return false;
  sockaddr_un peer{};
  const socklen_t len = abstract_name(peer, socket_ + ":in" + std::to_string(info.id));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&peer), len) != 0) {
    ::close(fd);
    return false;
  }
  const auto& n = topology_.nodes()[node];
  clients_[slot] = Client{.fd = fd, .pid = info.id, .node = node, .port = n.is_switch ? 0u : 1u, .issm = info.issm != 0};
  ++stats_.clients;
  info.id = static_cast<std::uint32_t>(slot);
  std::memset(info.node, 0, sizeof info.node);
  std::memcpy(info.node, n.name.data(), std::min(n.name.size(), sizeof(info.node) - 1));
  std::memcpy(ctl.data, &info, sizeof info);
  return true;
}

void FabricServer::control() {
  for (;;) {
    w::Ctl ctl{};
    sockaddr_un from{};
    socklen_t from_len = sizeof from;
    const ssize_t got = ::recvfrom(ctl_fd_, &ctl, sizeof ctl, 0, reinterpret_cast<sockaddr*>(&from), &from_len);
    if (got < 0) return;  // EAGAIN: drained
    if (got != static_cast<ssize_t>(sizeof ctl) || ctl.magic != w::kMagic) continue;
    const bool connect = ctl.type == w::kCtlConnect;
    if (!connect && (ctl.client_id >= clients_.size() || clients_[ctl.client_id].fd < 0)) {
      ctl.type = w::kCtlError;
    } else if (connect) {
      if (!connect_client(&ctl)) ctl.type = w::kCtlError;
    } else {
      Client& c = clients_[ctl.client_id];
      const auto& n = topology_.nodes()[c.node];
      std::span<std::uint8_t> data(ctl.data, sizeof ctl.data);
      switch (ctl.type) {
        case w::kCtlDisconnect:
          drop_client(ctl.client_id);
          break;
        case w::kCtlGetPort: {
          const w::PortState p{.lid = n.lid(c.port), .state = 4};
          std::memcpy(ctl.data, &p, sizeof p);
          break;
        }
        case w::kCtlGetVendor: {
          const w::Vendor v{.vendor_id = n.vendor_id, .vendor_part_id = n.device_id, .hw_ver = 0xa0, .fw_ver = 1};
          std::memcpy(ctl.data, &v, sizeof v);
          break;
        }
        case w::kCtlGetGid: {
          const std::uint64_t prefix = htobe64(0xfe80000000000000ULL);
          const std::uint64_t guid = htobe64(n.port_guid(c.port));
          std::memcpy(ctl.data, &prefix, 8);
          std::memcpy(ctl.data + 8, &guid, 8);
          break;
        }
        case w::kCtlGetGuid:
          std::memcpy(ctl.data, &n.guid, 8);
          break;
        case w::kCtlGetNodeInfo:
          fill_node_info(topology_, c.node, c.port, data);
          break;
        case w::kCtlGetPortInfo: {
          unsigned port = ctl.data[0];
          if (port == 0 || port > n.ports) port = c.port;
          fill_port_info(topology_, c.node, port, n.is_switch ? c.port : port, data);
          break;
        }
        case w::kCtlSetIssm: {
          int issm = 0;
          std::memcpy(&issm, ctl.data, sizeof issm);
          c.issm = issm != 0;
          break;
        }
        case w::kCtlGetPkeys:
          std::memset(ctl.data, 0, sizeof ctl.data);
          ctl.data[0] = 0xff;  // 0xffff, network order: the default partition
          ctl.data[1] = 0xff;
          break;
        default:
          ctl.type = w::kCtlError;
      }
    }
    (void)::sendto(ctl_fd_, &ctl, sizeof ctl, MSG_DONTWAIT, reinterpret_cast<sockaddr*>(&from), from_len);
  }
}

void FabricServer::packets(std::size_t i) {
  for (int budget = 64; budget > 0 && clients_[i].fd >= 0; --budget) {
    w::Request r{};
    const ssize_t got = ::read(clients_[i].fd, &r, sizeof r);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (got < 0) {  // the client's socket is gone
      drop_client(i);
      return;
    }
    if (got != static_cast<ssize_t>(sizeof r)) continue;
    answer(i, &r);
  }
}

void FabricServer::answer(std::size_t i, void* raw) {
  auto& r = *static_cast<w::Request*>(raw);
  std::uint8_t* m = r.mad;
  const Client& c = clients_[i];
  if ((m[mad::kOffMethod] & mad::kResponseBit) != 0 || (m[mad::kOffMethod] & 0x7f) == 0x07) return;  // answers, trap represses
  ++stats_.mads;
  const std::uint8_t cls = m[mad::kOffClass];
  const auto& nodes = topology_.nodes();
  SimTopologyNode::Peer at{c.node, c.port};
  bool routed = true;
  if (cls == mad::kClassSmpDirected) {
    const unsigned hops = m[mad::kOffHopCount];
    if (m[mad::kOffHopPointer] != 0 || hops > mad::kMaxDrHops) routed = false;
    for (unsigned h = 1; routed && h <= hops; ++h) {
      const unsigned out = m[mad::kOffDrInitialPath + h];
      const auto& n = nodes[at.node];
      if (out == 0 || out > n.ports || n.peers[out].node == SimTopologyNode::kNone) {
        routed = false;
      } else {
        at = n.peers[out];
      }
    }
  } else {
    at = topology_.by_lid(ntohs(static_cast<std::uint16_t>(r.dlid)));
    routed = at.node != SimTopologyNode::kNone;
  }
  const std::uint16_t target_lid = routed ? nodes[at.node].lid(at.port) : 0;
  bool answered = false;
  if (routed) {
    const bool smp = cls == mad::kClassSmpLid || cls == mad::kClassSmpDirected;
    const std::uint16_t attr = mad::get16(m, mad::kOffAttrId);
    const std::uint8_t method = m[mad::kOffMethod] & 0x7f;
    MadRequestHandler* device = handlers_[at.node];
    if (smp && attr < 0xff00) {
      if (method == mad::kMethodGet || method == mad::kMethodSet) {
        const std::uint16_t status = answer_subnet_attribute(topology_, at.node, at.port, attr,
                                                             mad::get32(m, mad::kOffAttrMod),
                                                             std::span<std::uint8_t>(m + mad::kOffSmpData, mad::kSmpDataSize));
        make_response(m, status);
        ++(status == 0 ? stats_.subnet_mads : stats_.unsupported);
        answered = true;
      }
    } else if (smp || cls == mad::kClassVendorA || cls == mad::kClassVendor9) {
      if (device != nullptr) {
        const auto a = device->handle(std::span<std::uint8_t>(m, mad::kMadSize));
        answered = a.has_value();
        if (answered) ++stats_.device_mads;
      } else if (method == mad::kMethodGet || method == mad::kMethodSet) {
        make_response(m, mad::kStatusAttrUnsupported);
        ++stats_.unsupported;
        answered = true;
      }
    }
  }
  if (answered) {
    const std::uint32_t from_lid = r.slid != 0 ? r.slid : htons(nodes[c.node].lid(c.port));
    r.slid = cls == mad::kClassSmpDirected ? r.dlid : htons(target_lid);
    r.dlid = from_lid;
    std::swap(r.dqp, r.sqp);
    r.status = 0;
  } else {
    r.status = htonl(kBounce);
    ++stats_.bounced;
  }
  // A client with many MADs in flight can have a full receive queue (net.unix.max_dgram_qlen):
  // wait for room rather than drop the answer (ibsim retries too); a dead client is let go.
  for (int waits = 0;; ++waits) {
    if (::write(c.fd, &r, sizeof r) >= 0) return;
    if (errno == ECONNREFUSED || errno == ENOTCONN) {
      drop_client(i);
      return;
    }
    if ((errno != EAGAIN && errno != EWOULDBLOCK) || waits == 50) {
      ++stats_.lost;
      return;
    }
    pollfd room{c.fd, POLLOUT, 0};
    (void)::poll(&room, 1, 100);
  }
}

}  // namespace openflint
