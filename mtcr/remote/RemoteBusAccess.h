// RemoteBusAccess: CR-space of a device on another host through an mstmtserver (legacy bus-server protocol 1.4).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/remote/BusConnection.h"
#include "mtcr/remote/BusProtocol.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

// One request, one reply, in order (mft-internals.md §1.2). The protocol has no request ids, so
// after a timeout or a malformed reply the stream may be out of step: the object then refuses
// further calls (Io) instead of pairing a late reply with the wrong request. An "E <text>" reply
// is an Io error carrying the server's text. Not thread-safe.
class RemoteBusAccess final : public RegisterAccess {
 public:
  static constexpr std::chrono::milliseconds kDefaultReplyTimeout{10000};
  // How long the destructor waits for the answer to its C.
  static constexpr std::chrono::milliseconds kCloseReplyTimeout{500};

  // How often open() asks again while the server reports the device busy.
  static constexpr std::chrono::milliseconds kBusyRetryInterval{100};

  // V (any "O" reply; its text is kept), then "O 1 <remote_device>". The device name must be
  // printable without spaces (check_bus_device_name; mstflint's server ignores it and opens its
  // -dev device). While the server answers that the device is busy (held by another tool on its
  // host: a Busy error), O is asked again on the same connection for up to `busy_wait`; then
  // the error is Busy, naming the time waited.
  [[nodiscard]] static Result<std::unique_ptr<RemoteBusAccess>> open(
      BusConnection connection, std::string_view remote_device,
      std::chrono::milliseconds reply_timeout = kDefaultReplyTimeout,
      std::chrono::milliseconds busy_wait = std::chrono::milliseconds{0});
  // Sends C, best effort.
  ~RemoteBusAccess() override;
  RemoteBusAccess(const RemoteBusAccess&) = delete;
  RemoteBusAccess& operator=(const RemoteBusAccess&) = delete;

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override;
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override;
  // B/U in pieces of kBusMaxBlockDwords; when the server answers "E Invalid command" (mstflint's
  // MST_UL build), R/W per dword from then on.
  [[nodiscard]] Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) override;
  [[nodiscard]] Result<void> write_block(std::uint32_t address, std::span<const std::uint32_t> values) override;
  // Pipelined: the W requests (and the block read) go out in one send and their replies are read
  // after, so a flash gateway transaction is one round trip. At most kBusMaxPipelinedRequests at
  // a time. The server has run every request sent, so after an "E" reply to one W the later ones
  // were still done; the first "E" is the call's error.
  [[nodiscard]] Result<void> write_sequence(std::span<const RegisterWrite> writes) override;
  [[nodiscard]] Result<void> write_then_read(std::span<const RegisterWrite> writes, std::uint32_t address,
                                             std::span<std::uint32_t> out) override;
  [[nodiscard]] std::size_t max_block_dwords() const override { return kBusMaxBlockDwords; }
  // Every access is a network round trip.
  [[nodiscard]] bool costly_access() const override { return true; }

  // openflint's register channel (G, docs/remote.md), probed on the first call and remembered:
  // the register bytes one access carries, or NotSupported when the server does not know G
  // (mstmtserver: "E Invalid command") or its device has no register port.
  [[nodiscard]] Result<std::size_t> register_channel();
  // One access register through G. The answer's register status stays in the TLV; an error is
  // the channel's (Io, Timeout; NotSupported without a register channel).
  [[nodiscard]] Result<AccessRegisterTlv> access_register(const AccessRegisterTlv& request);
  // Several, pipelined (kBusMaxPipelinedRequests per round trip); the answers in order. An "E"
  // reply to any of them is the call's error (the stream stays in step).
  [[nodiscard]] Result<std::vector<AccessRegisterTlv>> access_registers(std::span<const AccessRegisterTlv> requests);

  // openflint's reset (X, docs/remote.md) of the opened device by the server: `run` false asks
  // what a reset at `level` (3 now, 4 armed) would do, true resets. NotSupported when the server
  // does not know X (mstmtserver: "E Invalid command"); a refusal ("E reset not allowed by this
  // server", a plan blocker) is an Io error "the server answered: <why>". The reset's reply may
  // take kResetReplyAllowance more than other replies (a PCI reset waits for the device).
  static constexpr std::chrono::milliseconds kResetReplyAllowance{30000};
  [[nodiscard]] Result<BusResetReply> server_reset(std::uint8_t level, bool run);

  // Round trips so far: each send of one request or of a pipelined batch.
  [[nodiscard]] std::uint64_t round_trips() const { return round_trips_; }
  // "1.4" from mstflint's server.
  [[nodiscard]] const std::string& server_version() const { return version_; }
  // The O reply's flag: the server opened the device through the PCI VSEC gateway.
  [[nodiscard]] bool opened_through_gateway() const { return gateway_; }
  // Known once a block was tried: whether the server has B (reads) and U (writes).
  [[nodiscard]] std::optional<bool> has_block_read() const { return block_read_; }
  [[nodiscard]] std::optional<bool> has_block_write() const { return block_write_; }

 private:
  RemoteBusAccess(BusConnection connection, std::chrono::milliseconds reply_timeout);

  // Sends the request and returns the raw reply text.
  [[nodiscard]] Result<std::string> exchange(const BusRequest& request);
  // Sends the requests in batches of at most kBusMaxPipelinedRequests, one send each, and
  // returns their replies in order. A missing reply breaks the connection.
  [[nodiscard]] Result<std::vector<std::string>> pipeline(std::span<const BusRequest> requests);
  // After a reply that did not parse: unless it was an "E" reply, the stream is out of step.
  void note_failed_reply(std::string_view reply);
  [[nodiscard]] Result<void> read_piece(std::uint32_t address, std::span<std::uint32_t> out);
  // A block-read reply for out.size() dwords at `address` into `out` (and block reads are known to work).
  [[nodiscard]] Result<void> take_block_reply(const std::string& reply, std::uint32_t address, std::span<std::uint32_t> out);
  [[nodiscard]] Result<void> write_piece(std::uint32_t address, std::span<const std::uint32_t> values);

  BusConnection connection_;
  std::chrono::milliseconds reply_timeout_;
  bool broken_ = false;  // a reply went missing or made no sense: the stream is out of step
  std::string version_;
  bool gateway_ = false;
  std::optional<bool> block_read_;
  std::optional<bool> block_write_;
  std::optional<Result<std::size_t>> register_channel_;  // the G probe's answer, once asked
  std::uint64_t round_trips_ = 0;
};

}  // namespace openflint
