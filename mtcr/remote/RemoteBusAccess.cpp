// RemoteBusAccess: the mstmtserver client: V and O on open, R/W per dword, B/U blocks with a per-dword fallback.
#include "mtcr/remote/RemoteBusAccess.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "core/HexString.h"

namespace openflint {

RemoteBusAccess::RemoteBusAccess(BusConnection connection, std::chrono::milliseconds reply_timeout)
    : connection_(std::move(connection)), reply_timeout_(reply_timeout) {}

Result<std::unique_ptr<RemoteBusAccess>> RemoteBusAccess::open(BusConnection connection,
                                                               std::string_view remote_device,
                                                               std::chrono::milliseconds reply_timeout,
                                                               std::chrono::milliseconds busy_wait) {
  // The name goes on the wire as one field: what the server's grammar accepts, nothing else.
  OF_TRY_CTX(check_bus_device_name(remote_device), "remote device name '" + std::string(remote_device) + "'");
  BusRequest open_request = bus_request(BusCommand::Open);
  open_request.device_type = kBusDeviceTypeTavor;
  open_request.device = std::string(remote_device);

  std::unique_ptr<RemoteBusAccess> access(new RemoteBusAccess(std::move(connection), reply_timeout));
  {
    OF_ASSIGN(const std::string reply, access->exchange(bus_request(BusCommand::Version)));
    OF_ASSIGN_CTX(access->version_, parse_ok_reply(reply), "asking the server's version");
  }
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    OF_ASSIGN(const std::string reply, access->exchange(open_request));
    auto gateway = parse_read_reply(reply);
    if (gateway) {
      access->gateway_ = *gateway != 0;
      return access;
    }
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    if (gateway.error().code() != ErrorCode::Busy)
      return make_error(std::move(gateway).error().with_context("opening remote " + std::string(remote_device)));
    if (waited >= busy_wait)
      return make_error(ErrorCode::Busy, "opening remote " + std::string(remote_device) + ": " +
                                             gateway.error().message() + " (still busy after " + std::to_string(waited.count()) +
                                             " ms of retries: run again when the other tool is done, or give a "
                                             "longer lock timeout, --lock-timeout MS)");
    std::this_thread::sleep_for(std::min(kBusyRetryInterval, busy_wait - waited));
  }
}

RemoteBusAccess::~RemoteBusAccess() {
  if (broken_) return;
  if (connection_.send(format_bus_request(bus_request(BusCommand::Close)))) {
    // Wait briefly for the answer so the server sees an orderly close; its content is moot.
    (void)connection_.receive_reply(kBusMaxReplyBytes, kCloseReplyTimeout);
  }
}

Result<std::string> RemoteBusAccess::exchange(const BusRequest& request) {
  if (broken_) return make_error(ErrorCode::Io, "the connection to the server is unusable after an earlier error");
  ++round_trips_;
  auto sent = connection_.send(format_bus_request(request));
  if (!sent) {
    broken_ = true;
    return make_error(std::move(sent).error());
  }
  auto reply = connection_.receive_reply(kBusMaxReplyBytes, reply_timeout_);
  if (!reply) broken_ = true;
  return reply;
}

void RemoteBusAccess::note_failed_reply(std::string_view reply) {
  // An "E ..." answer is a reply in step with its request; anything else that failed to parse
  // may be a reply to some other request.
  if (!reply.starts_with("E")) broken_ = true;
}

Result<std::uint32_t> RemoteBusAccess::read32(std::uint32_t address) {
  OF_ASSIGN(const std::string reply, exchange(bus_request(BusCommand::Read, address)));
  auto value = parse_read_reply(reply);
  if (!value) {
    note_failed_reply(reply);
    return make_error(std::move(value).error().with_context("reading " + hex_string(address)));
  }
  return value;
}

Result<void> RemoteBusAccess::write32(std::uint32_t address, std::uint32_t value) {
  OF_ASSIGN(const std::string reply, exchange(bus_request(BusCommand::Write, address, value)));
  if (auto ok = parse_ok_reply(reply); !ok) {
    note_failed_reply(reply);
    return make_error(std::move(ok).error().with_context("writing " + hex_string(address)));
  }
  return {};
}

Result<void> RemoteBusAccess::read_block(std::uint32_t address, std::span<std::uint32_t> out) {
  for (std::size_t done = 0; done < out.size();) {
    const std::size_t n = std::min(kBusMaxBlockDwords, out.size() - done);
    OF_TRY(read_piece(address + static_cast<std::uint32_t>(4 * done), out.subspan(done, n)));
    done += n;
  }
  return {};
}

Result<void> RemoteBusAccess::write_block(std::uint32_t address, std::span<const std::uint32_t> values) {
  for (std::size_t done = 0; done < values.size();) {
    const std::size_t n = std::min(kBusMaxBlockDwords, values.size() - done);
    OF_TRY(write_piece(address + static_cast<std::uint32_t>(4 * done), values.subspan(done, n)));
    done += n;
  }
  return {};
}

Result<void> RemoteBusAccess::read_piece(std::uint32_t address, std::span<std::uint32_t> out) {
  if (block_read_.value_or(true)) {
    const auto size = static_cast<std::uint32_t>(4 * out.size());
    OF_ASSIGN(const std::string reply, exchange(bus_request(BusCommand::ReadBlock, address, 0, size)));
    if (!is_invalid_command_reply(reply)) return take_block_reply(reply, address, out);
    block_read_ = false;
  }
  return RegisterAccess::read_block(address, out);
}

Result<void> RemoteBusAccess::write_piece(std::uint32_t address, std::span<const std::uint32_t> values) {
  if (block_write_.value_or(true)) {
    const auto size = static_cast<std::uint32_t>(4 * values.size());
    BusRequest request = bus_request(BusCommand::WriteBlock, address, 0, size);
    request.data.assign(values.begin(), values.end());
    OF_ASSIGN(const std::string reply, exchange(request));
    if (!is_invalid_command_reply(reply)) {
      if (auto ok = parse_ok_reply(reply); !ok) {
        note_failed_reply(reply);
        return make_error(std::move(ok).error().with_context("writing " + std::to_string(size) + " bytes at " +
                                                             hex_string(address)));
      }
      block_write_ = true;
      return {};
    }
    block_write_ = false;
  }
  return RegisterAccess::write_block(address, values);
}

}  // namespace openflint

namespace openflint {

Result<std::vector<std::string>> RemoteBusAccess::pipeline(std::span<const BusRequest> requests) {
  std::vector<std::string> replies;
  replies.reserve(requests.size());
  for (std::size_t done = 0; done < requests.size();) {
    if (broken_) return make_error(ErrorCode::Io, "the connection to the server is unusable after an earlier error");
    const std::size_t n = std::min(kBusMaxPipelinedRequests, requests.size() - done);
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < n; ++i) texts.push_back(format_bus_request(requests[done + i]));
    ++round_trips_;
    auto sent = connection_.send_all(texts);
    if (!sent) {
      broken_ = true;
      return make_error(std::move(sent).error());
    }
    // Every reply of the batch is read, even after an "E": the stream stays in step.
    for (std::size_t i = 0; i < n; ++i) {
      auto reply = connection_.receive_reply(kBusMaxReplyBytes, reply_timeout_);
      if (!reply) {
        broken_ = true;
        return make_error(std::move(reply).error());
      }
      replies.push_back(std::move(*reply));
    }
    done += n;
  }
  return replies;
}

Result<void> RemoteBusAccess::write_sequence(std::span<const RegisterWrite> writes) {
  return write_then_read(writes, 0, {});
}

Result<void> RemoteBusAccess::write_then_read(std::span<const RegisterWrite> writes, std::uint32_t address,
                                              std::span<std::uint32_t> out) {
  std::vector<BusRequest> requests;
  for (const auto& w : writes) requests.push_back(bus_request(BusCommand::Write, w.address, w.value));
  // The read rides along when one request carries it: B (unless the server lacks it), or R.
  const bool block = out.size() > 1 && out.size() <= kBusMaxBlockDwords && block_read_.value_or(true);
  const bool read_along = block || out.size() == 1;
  const auto size = static_cast<std::uint32_t>(4 * out.size());
  if (read_along)
    requests.push_back(block ? bus_request(BusCommand::ReadBlock, address, 0, size) : bus_request(BusCommand::Read, address));
  OF_ASSIGN(const std::vector<std::string> replies, pipeline(requests));
  std::optional<Error> first_error;
  for (std::size_t i = 0; i < writes.size(); ++i) {
    auto ok = parse_ok_reply(replies[i]);
    if (ok) continue;
    note_failed_reply(replies[i]);
    if (!first_error) first_error = std::move(ok).error().with_context("writing " + hex_string(writes[i].address));
  }
  if (first_error) return make_error(std::move(*first_error));
  if (out.empty()) return {};
  if (!read_along) return read_block(address, out);
  const std::string& reply = replies.back();
  if (!block) {
    auto value = parse_read_reply(reply);
    if (!value) {
      note_failed_reply(reply);
      return make_error(std::move(value).error().with_context("reading " + hex_string(address)));
    }
    out[0] = *value;
    return {};
  }
  if (is_invalid_command_reply(reply)) {
    block_read_ = false;
    return RegisterAccess::read_block(address, out);
  }
  return take_block_reply(reply, address, out);
}

Result<void> RemoteBusAccess::take_block_reply(const std::string& reply, std::uint32_t address, std::span<std::uint32_t> out) {
  const auto size = static_cast<std::uint32_t>(4 * out.size());
  auto values = parse_block_reply(reply, size);
  if (!values) {
    note_failed_reply(reply);
    return make_error(std::move(values).error().with_context("reading " + std::to_string(size) + " bytes at " +
                                                             hex_string(address)));
  }
  block_read_ = true;
  std::copy(values->begin(), values->end(), out.begin());
  return {};
}

Result<std::size_t> RemoteBusAccess::register_channel() {
  if (!register_channel_) {
    auto probe = [this]() -> Result<std::size_t> {
      OF_ASSIGN(const std::string reply, exchange(bus_request(BusCommand::Register)));
      if (is_invalid_command_reply(reply))
        return make_error(ErrorCode::NotSupported, "the bus server has no register channel (a legacy server: "
                                                   "CR-space only)");
      if (reply.starts_with("E"))
        return make_error(ErrorCode::NotSupported, "the bus server has no register channel to this device: " +
                                                   std::string(reply.substr(std::min<std::size_t>(2, reply.size()))));
      auto bytes = parse_read_reply(reply);
      if (!bytes) {
        note_failed_reply(reply);
        return make_error(std::move(bytes).error().with_context("asking the server's register channel"));
      }
      if (*bytes < 4 || *bytes > kBusMaxRegisterBytes || *bytes % 4 != 0) {
        broken_ = true;
        return make_error(ErrorCode::Io, "the server offers registers of " + std::to_string(*bytes) + " bytes");
      }
      return static_cast<std::size_t>(*bytes);
    };
    auto answer = probe();
    // A lost or garbled reply is no answer: asked again next time (and refused, the stream is broken).
    if (!answer && answer.error().code() != ErrorCode::NotSupported) return answer;
    register_channel_ = std::move(answer);
  }
  return *register_channel_;
}

Result<AccessRegisterTlv> RemoteBusAccess::access_register(const AccessRegisterTlv& request) {
  OF_ASSIGN(std::vector<AccessRegisterTlv> answers, access_registers(std::span<const AccessRegisterTlv>(&request, 1)));
  return std::move(answers.front());
}

Result<std::vector<AccessRegisterTlv>> RemoteBusAccess::access_registers(std::span<const AccessRegisterTlv> requests) {
  OF_ASSIGN(const std::size_t max_bytes, register_channel());
  std::vector<BusRequest> texts;
  texts.reserve(requests.size());
  for (const AccessRegisterTlv& request : requests) {
    if (request.data.empty() || request.data.size() % 4 != 0 || request.data.size() > max_bytes)
      return make_error(ErrorCode::InvalidArgument, "access register " + hex_string(request.register_id) + ": " +
                                                        std::to_string(request.data.size()) +
                                                        " bytes is not a multiple of 4 in 4.." + std::to_string(max_bytes));
    BusRequest g = bus_request(BusCommand::Register, 0, 0, static_cast<std::uint32_t>(request.data.size()));
    g.register_id = request.register_id;
    g.method = request.method;
    g.data = register_dwords(request.data);
    texts.push_back(std::move(g));
  }
  OF_ASSIGN(const std::vector<std::string> replies, pipeline(texts));
  std::vector<AccessRegisterTlv> answers;
  answers.reserve(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    auto answer = parse_register_reply(replies[i]);
    if (!answer) {
      note_failed_reply(replies[i]);
      return make_error(std::move(answer).error().with_context("access register " + hex_string(requests[i].register_id)));
    }
    AccessRegisterTlv out = requests[i];
    out.status = answer->status;
    out.data = register_bytes(answer->data);
    answers.push_back(std::move(out));
  }
  return answers;
}

Result<BusResetReply> RemoteBusAccess::server_reset(std::uint8_t level, bool run) {
  BusRequest request = bus_request(BusCommand::Reset);
  request.reset_level = level;
  request.reset_run = run;
  const auto usual = reply_timeout_;
  if (run) reply_timeout_ = usual + kResetReplyAllowance;
  auto reply = exchange(request);
  reply_timeout_ = usual;
  if (!reply) return make_error(std::move(reply).error());
  if (is_invalid_command_reply(*reply))
    return make_error(ErrorCode::NotSupported, "the bus server does not reset devices (a legacy server)");
  auto answer = parse_reset_reply(*reply, run);
  if (!answer) note_failed_reply(*reply);
  return answer;
}

}  // namespace openflint
