// FirmwareTracer: the catalog's tracer record checked first, then the firmware asked.
#include "fwops/trace/FirmwareTracer.h"

#include <array>
#include <cctype>

#include "fwops/trace/TracerRegisters.h"

namespace openflint {
namespace {

constexpr std::array<std::string_view, kMaxTraceLevel + 1> kTraceLevelNames{"DEBUG", "INFO", "WARNING", "ERROR"};

bool same_level_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(a[i])) != b[i]) return false;
  return true;
}

}  // namespace

Result<std::uint8_t> parse_trace_level(std::string_view text) {
  if (text.size() == 1 && text[0] >= '0' && text[0] <= '0' + kMaxTraceLevel) return static_cast<std::uint8_t>(text[0] - '0');
  for (std::size_t i = 0; i < kTraceLevelNames.size(); ++i)
    if (same_level_name(text, kTraceLevelNames[i])) return static_cast<std::uint8_t>(i);
  return make_error(ErrorCode::InvalidArgument, "unknown trace level '" + std::string(text) +
                                                    "' (0 DEBUG, 1 INFO, 2 WARNING, 3 ERROR: a number or a name)");
}

std::string_view trace_level_name(std::uint8_t level) {
  return level < kTraceLevelNames.size() ? kTraceLevelNames[level] : std::string_view("?");
}

Result<FirmwareTracer> FirmwareTracer::open(Device& device) {
  const DeviceInfo& family = device.info();
  const std::string who = device.name() + " (" + std::string(family.name) + ")";
  if (family.tracer == nullptr)
    return make_error(ErrorCode::NotSupported, who + ": this family has no firmware tracer (it came with Connect-IB and Switch-IB)");
  auto port = device.register_port();
  if (!port) return make_error(std::move(port).error().with_context(who + ": the tracer's registers"));
  auto capabilities = query_tracer_capabilities(**port);
  if (!capabilities) return make_error(std::move(capabilities).error().with_context(who));
  return FirmwareTracer(device, **port, *family.tracer, *capabilities);
}

Result<TraceStringDb> FirmwareTracer::read_strings() {
  auto db = read_trace_string_db(*port_, capabilities_);
  if (!db) return make_error(std::move(db).error().with_context(device_->name()));
  return db;
}

Result<TracerOwner> FirmwareTracer::probe_owner() {
  auto owner = probe_tracer_owner(*port_);
  if (!owner) return make_error(std::move(owner).error().with_context(device_->name()));
  return owner;
}

Result<void> FirmwareTracer::set_trace_mask(std::uint32_t mask, std::uint8_t level) {
  if (level > kMaxTraceLevel)
    return make_error(ErrorCode::InvalidArgument, "trace level " + std::to_string(level) + " is not 0-3");
  const auto payload = set_itrace_payload(mask, level);
  auto answer = device_->firmware_command(kIcmdSetItrace, payload, 0);
  if (!answer) return make_error(std::move(answer).error().with_context("setting the trace mask (ICMD SET_ITRACE 0xf003)"));
  return {};
}

}  // namespace openflint
