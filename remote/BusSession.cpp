// BusSession: the request loop and the per-command answers of the legacy bus server (mft-internals.md §1.2).
#include "core/HexString.h"
#include "remote/BusSession.h"

#include <algorithm>
#include <cstdio>
#include <new>
#include <utility>

#include "fwops/registers/AdapterReset.h"
#include "fwops/registers/CrSpaceWords.h"
#include "remote/ReadOnlyWrites.h"
#include "remote/SessionFlashLock.h"

namespace openflint {
namespace {

constexpr std::string_view kNotOpened = "Not opened";
constexpr std::string_view kAlreadyOpened = "Already opened";
constexpr std::string_view kReadOnly = "read-only server";

// Client device names write every '/' as '@' (MFT's HOST:PORT,@dev@mst@... convention).
std::string device_path(std::string_view name) {
  std::string path(name);
  std::replace(path.begin(), path.end(), '@', '/');
  return path;
}

// An error as one reply line: the protocol is line-less, but a client prints it as one.
std::string error_reply(const Error& error) {
  std::string text = error.message();
  std::replace(text.begin(), text.end(), '\n', ' ');
  return format_error(text);
}

// The CR-space dwords a request touches: R and W one, B and U their size rounded up.
std::uint64_t dwords_of(const BusRequest& request) {
  if (request.command == BusCommand::ReadBlock || request.command == BusCommand::WriteBlock)
    return (std::uint64_t{request.size} + 3) / 4;
  return 1;
}

}  // namespace

BusSession::BusSession(BusChannel& channel, BusSessionOptions options)
    : channel_(channel), options_(std::move(options)) {
  audit("connection opened");
}

BusSession::~BusSession() {
  try {
    close_device(" (connection ended)");  // the lock goes before the audit line says the connection is gone
    audit("connection closed: " + std::to_string(requests_) + " requests in " + std::to_string(batches_) +
          " round trips");
  } catch (const std::exception&) {
    // Out of memory for an audit line: the device (and its lock) went with device_ all the same.
  }
}

void BusSession::close_device(std::string_view why) {
  if (!device_) return;
  // Before saving: a client killed mid-burn must not leave the device locked (issue 12).
  if (auto released = release_flash_lock_left_by_session(*device_, flash_lock_free_at_open_); !released)
    audit("checking the flash lock of " + device_->name() + " failed: " + released.error().message());
  else if (*released)
    audit("released the flash lock the client of " + device_->name() + " left taken");
  std::string totals;
  if (bytes_written_ != 0 || register_writes_ != 0) {
    // A register write may have changed the device too (a firmware-mediated burn writes flash).
    auto saved = device_->commit();
    if (!saved) audit("saving " + device_->name() + " failed: " + saved.error().message());
    totals = ": " + std::to_string(dword_writes_ + block_writes_) + " writes, " + std::to_string(bytes_written_) +
             " bytes written, " + std::to_string(register_writes_) + " register writes";
  }
  audit("closed " + device_->name() + std::string(why) + totals);
  device_.reset();
  dword_writes_ = block_writes_ = bytes_written_ = register_writes_ = 0;
}

std::string BusSession::refuse_read_only(std::string_view why) {
  // One audit line per session: a tool that tries to burn stops at its first refusal anyway.
  if (read_only_refusals_++ == 0) audit("refused on a read-only server: " + device_->name() + " " + std::string(why));
  return format_error(kReadOnly);
}

void BusSession::audit(std::string_view line) const {
  if (options_.audit) options_.audit(options_.peer + ": " + std::string(line));
}

Result<void> BusSession::run() {
  const auto stop = [this](Error error) -> Result<void> {
    // Oversized: the rest of the stream cannot be framed reliably, so answer and hang up.
    if (error.code() == ErrorCode::InvalidArgument)
      (void)channel_.send(format_error("request longer than " + std::to_string(kBusMaxRegisterRequestBytes) + " bytes"));
    return make_error(std::move(error));
  };
  while (true) {
    auto request = channel_.receive(kBusMaxRegisterRequestBytes, options_.idle_timeout);
    if (!request) return stop(std::move(request).error());
    // The requests a pipelining client sent along are already buffered: answer them all, then
    // send the replies together in one write (one round trip for the client).
    ++batches_;
    std::vector<std::string> replies;
    for (std::size_t n = 1;; ++n) {
      ++requests_;
      for (std::string& reply : answer(*request)) replies.push_back(std::move(reply));
      if (n == kMaxRequestsPerBatch) break;
      request = channel_.receive(kBusMaxRegisterRequestBytes, std::chrono::milliseconds{0});
      if (!request) break;
    }
    OF_TRY(channel_.send_all(replies));
    if (!request && request.error().code() != ErrorCode::Timeout) return stop(std::move(request).error());
  }
}

std::vector<std::string> BusSession::answer(std::string_view request_text) {
  try {
    auto request = parse_bus_request(request_text);
    if (!request) return {error_reply(request.error())};
    return answer_request(*request);
  } catch (const std::bad_alloc&) {
    // What this request allocated is gone again; the session and the others go on.
    return {format_error("out of memory on the server")};
  }
}

std::vector<std::string> BusSession::answer_request(const BusRequest& request) {
  switch (request.command) {
    case BusCommand::Version: return {format_ok(kBusProtocolVersion)};
    case BusCommand::List: {
      std::vector<std::string> replies{format_ok(std::to_string(options_.devices.size()))};
      replies.insert(replies.end(), options_.devices.begin(), options_.devices.end());
      return replies;
    }
    case BusCommand::Open: return {open(request)};
    case BusCommand::Close:
      close_device("");
      return {format_ok()};
    // No-ops here: P toggles mstflint's BAR/config-space access and A picks a VSEC address
    // space; our Device already chose its transport, so both just answer "O" as mtserver does.
    case BusCommand::PciChange:
    case BusCommand::AddressSpace: return {format_ok()};
    default: break;
  }
  if (!device_) return {format_error(kNotOpened)};
  RegisterAccess& access = device_->access();
  // CR-space requests stay inside the device's CR-space, the check `mst mread`/`mwrite` make.
  if (request.command == BusCommand::Read || request.command == BusCommand::Write ||
      request.command == BusCommand::ReadBlock || request.command == BusCommand::WriteBlock)
    if (auto inside = check_cr_range(device_->info(), request.offset, dwords_of(request)); !inside)
      return {error_reply(inside.error())};
  switch (request.command) {
    case BusCommand::Read: {
      auto value = access.read32(request.offset);
      return {value ? format_read_reply(*value) : error_reply(value.error())};
    }
    case BusCommand::Write: {
      if (options_.read_only) {
        // Flash reads drive the gateway with writes: those are answered, nothing else.
        auto allowed = check_read_only_write(access, device_->info().flash_gateway, request.offset, request.value);
        if (!allowed) return {refuse_read_only(allowed.error().message())};
        auto written = access.write32(request.offset, request.value);
        return {written ? format_ok() : error_reply(written.error())};
      }
      if (dword_writes_++ == 0) audit("W " + device_->name() + " " + hex_string(request.offset) + " 4 bytes (first dword write)");
      bytes_written_ += 4;
      auto written = access.write32(request.offset, request.value);
      return {written ? format_ok() : error_reply(written.error())};
    }
    case BusCommand::ReadBlock: return {read_block(request)};
    case BusCommand::WriteBlock: return {write_block(request)};
    case BusCommand::Register: return {access_register(request)};
    case BusCommand::Reset: return {reset(request)};
    default: return {format_error(kBusInvalidCommand)};
  }
}

std::string BusSession::open(const BusRequest& request) {
  if (device_) return format_error(kAlreadyOpened);
  const auto served = [this](const std::string& name) {
    return std::find(options_.devices.begin(), options_.devices.end(), name) != options_.devices.end();
  };
  // A served name as given (an ssh client sends its name literally, '@' and all), else with
  // each '@' read as '/' (MFT's HOST:PORT,DEVICE form).
  std::string name = request.device;
  if (!served(name)) name = device_path(request.device);
  if (!served(name)) {
    audit("O " + name + " refused: not served");
    return format_error("no such device: " + name);
  }
  auto device = open_device(name, options_.open_options);
  if (!device) {
    audit("O " + name + " failed: " + device.error().message());
    // The client may wait and ask again (its lock timeout): the reply says so in the words it
    // recognises (kBusDeviceBusy).
    if (device.error().code() == ErrorCode::Busy)
      return format_error(std::string(kBusDeviceBusy) + ": " + name +
                          " is in use by another tool or session on the server's host");
    return error_reply(device.error());
  }
  device_.emplace(std::move(device).value());
  const auto lock_free = flash_lock_free(*device_);
  flash_lock_free_at_open_ = lock_free.has_value() && *lock_free;
  audit("O " + name);
  // The flag means "opened through the PCI VSEC gateway"; 0 unless we knew better (we do not
  // track how a PCI Device reached CR-space).
  return format_ok("0");
}

std::string BusSession::read_block(const BusRequest& request) {
  RegisterAccess& access = device_->access();
  std::vector<std::uint32_t> dwords((request.size + 3) / 4);
  const std::size_t piece = std::max<std::size_t>(1, access.max_block_dwords());
  for (std::size_t i = 0; i < dwords.size(); i += piece) {
    const std::size_t n = std::min(piece, dwords.size() - i);
    auto read = access.read_block(request.offset + static_cast<std::uint32_t>(4 * i),
                                  std::span<std::uint32_t>(dwords).subspan(i, n));
    if (!read) return error_reply(read.error());
  }
  return format_block_reply(dwords, request.size);
}

std::string BusSession::write_block(const BusRequest& request) {
  if (options_.read_only) return refuse_read_only("U " + hex_string(request.offset) + ": block writes are never part of a read");
  if (block_writes_++ == 0)
    audit("U " + device_->name() + " " + hex_string(request.offset) + " " + std::to_string(request.size) +
          " bytes (first block write)");
  bytes_written_ += request.size;
  RegisterAccess& access = device_->access();
  const std::span<const std::uint32_t> dwords(request.data);
  const std::size_t piece = std::max<std::size_t>(1, access.max_block_dwords());
  for (std::size_t i = 0; i < dwords.size(); i += piece) {
    const std::size_t n = std::min(piece, dwords.size() - i);
    auto written = access.write_block(request.offset + static_cast<std::uint32_t>(4 * i), dwords.subspan(i, n));
    if (!written) return error_reply(written.error());
  }
  return {format_ok()};
}

std::string BusSession::access_register(const BusRequest& request) {
  auto port = device_->register_port();
  if (!port) return error_reply(port.error());
  const std::size_t max_bytes = std::min(kBusMaxRegisterBytes, (*port)->max_register_bytes()) / 4 * 4;
  if (request.size == 0) return format_ok(std::to_string(max_bytes));  // the probe
  if (request.size > max_bytes)
    return format_error("register of " + std::to_string(request.size) + " bytes exceeds the channel's " +
                        std::to_string(max_bytes));
  if (request.method == kBusRegisterWrite) {
    // Queries stay allowed on a read-only server: they read the firmware's state (MGIR, MCQS).
    if (options_.read_only) return refuse_read_only("register " + hex_string(request.register_id) + " write");
    if (register_writes_++ == 0)
      audit("G " + device_->name() + " register " + hex_string(request.register_id) + " " + std::to_string(request.size) +
            " bytes (first register write)");
  }
  auto answer = (*port)->access(request.register_id, request.method, register_bytes(request.data));
  if (!answer) return error_reply(answer.error());
  BusRegisterReply reply;
  reply.status = static_cast<std::uint8_t>(answer->status & 0x7f);
  reply.data = register_dwords(std::span<const std::uint8_t>(answer->data).first(std::min(answer->data.size(), max_bytes) / 4 * 4));
  return format_register_reply(reply);
}

std::string BusSession::reset(const BusRequest& request) {
  // One audit line per request, the plan's (X <level> 0) too: who asked, and what came of it.
  const std::string what = std::string(request.reset_run ? "reset of " : "reset plan of ") + device_->name() +
                           " level " + std::to_string(request.reset_level);
  const auto refuse = [&](std::string_view why) {
    audit(what + " refused: " + std::string(why));
    return format_error(why);
  };
  if (!options_.allow_reset) return refuse(kBusResetNotAllowed);
  if (options_.read_only) return refuse(kReadOnly);
  ResetOptions reset_options;
  reset_options.level = request.reset_level;
  reset_options.unbind_drivers = options_.allow_unbind;
  auto plan = plan_reset(*device_, reset_options);
  if (!plan) return refuse(plan.error().message());
  if (!plan->blockers.empty()) return refuse(plan->blockers.front().why);
  if (!request.reset_run) {
    audit(what + ": " + plan->method);
    return format_reset_reply({.resets_now = plan->resets_now, .took_ms = {}, .text = plan->method});
  }
  auto report = run_reset(*device_, *plan, reset_options);
  if (!report) return refuse(report.error().message());
  // A simulated device keeps its new boot state (what runs) like a real one: saved now.
  if (auto saved = device_->commit(); !saved) audit("saving " + device_->name() + " failed: " + saved.error().message());
  const auto& running = report->running_after;
  const std::string runs = running && running->image && running->image->fw_version
                               ? "runs " + running->image->fw_version->to_string()
                               : std::string("running firmware unknown");
  const std::string outcome = report->plan.resets_now ? "reset in " + std::to_string(report->took.count()) + " ms, " + runs
                                                      : "armed: the new firmware runs after the host's next warm reboot";
  audit(what + ": " + outcome);
  return format_reset_reply({.resets_now = report->plan.resets_now,
                             .took_ms = static_cast<std::uint32_t>(report->took.count()),
                             .text = outcome});
}

}  // namespace openflint
