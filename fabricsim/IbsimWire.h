// IbsimWire: the datagrams ibsim and its clients (umad2sim) exchange, as laid out on this host.
#pragma once

#include <cstdint>

namespace openflint::ibsim_wire {

// The layout facts of ibsim 0.10-0.12 (include/ibsim.h there): abstract AF_UNIX datagram
// sockets named from IBSIM_SOCKNAME ("sim" when unset): the server's "NAME:ctl" and
// "NAME:out<client id>", the client's "NAME:ctl<pid>" and "NAME:in<pid>". Control requests go
// to NAME:ctl and are answered in place (type SIM_CTL_ERROR on failure); MADs travel as
// Request from a client's in socket to its out socket and back. The client id picks the out
// socket, and ibsim's own table has 10 of them (one per attached process, each bound to one
// node): that cap is why a fabric of hundreds of responding nodes needs its own server.
inline constexpr std::uint32_t kMagic = 0xdeadbeef;
inline constexpr std::size_t kCtlData = 64;

enum CtlType : std::uint32_t {
  kCtlError = 0,
  kCtlConnect,
  kCtlDisconnect,
  kCtlGetPort,
  kCtlGetVendor,
  kCtlGetGid,
  kCtlGetGuid,
  kCtlGetNodeInfo,
  kCtlGetPortInfo,
  kCtlSetIssm,
  kCtlGetPkeys,
};

struct Ctl {
  std::uint32_t magic;
  std::uint32_t client_id;
  std::uint32_t type;
  std::uint32_t len;
  std::uint8_t data[kCtlData];
};

struct ClientInfo {  // the data of kCtlConnect
  std::uint32_t id;  // the client's pid in the request, its client id in the answer
  std::uint32_t qp;
  std::uint32_t issm;
  char node[32];     // SIM_HOST (node name or description); the node attached to in the answer
};

struct PortState {  // the data of kCtlGetPort
  std::uint16_t lid;
  std::uint8_t state;
};

struct Vendor {  // the data of kCtlGetVendor
  std::uint32_t vendor_id;
  std::uint32_t vendor_part_id;
  std::uint32_t hw_ver;
  std::uint64_t fw_ver;
};

// One MAD. dlid/slid hold a network-order 16-bit LID; dqp/sqp and status network-order 32-bit
// values; length a big-endian byte count. A slid of 0 means "the sender's port"; status 110
// (ETIMEDOUT) on a request sent back means nobody handled it.
struct Request {
  std::uint32_t dlid;
  std::uint32_t slid;
  std::uint32_t dqp;
  std::uint32_t sqp;
  std::uint32_t status;
  std::uint64_t length;
  std::uint8_t mad[256];
};

static_assert(sizeof(Ctl) == 80 && sizeof(ClientInfo) == 44 && sizeof(Request) == 288 && sizeof(Vendor) == 24);

}  // namespace openflint::ibsim_wire
