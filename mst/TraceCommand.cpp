// TraceCommand: `mst trace DEV` — the firmware's trace messages the mlx5 driver printed for DEV, the trace mask, the string DB.
#include <atomic>
#include <iostream>
#include <optional>
#include <sstream>
#include <stop_token>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "cli/SignalStopper.h"
#include "core/HexString.h"
#include "fwops/Device.h"
#include "fwops/trace/DriverTraceReader.h"
#include "fwops/trace/DriverTraceSource.h"
#include "fwops/trace/FirmwareTracer.h"
#include "fwops/trace/Tracefs.h"
#include "mst/Commands.h"
#include "mst/Pager.h"

namespace openflint::mst {
namespace {

using nlohmann::json;

struct TraceArgs {
  std::string device;
  std::string mask;
  std::string level;
  std::string sysfs;
  bool follow = false;
  bool strings = false;
  bool enable = false;
  bool no_pager = false;
};

// What the device side settled before the trace file is read (the device is closed by then).
struct TraceSource {
  std::string dbdf;
  std::filesystem::path event;  // the driver's event directory
};

int refuse(ErrorCode code, const std::string& message, const Common& common) {
  return cli::report_error(Error(code, message), common.json);
}

// mstfwtrace's line: "[0x<ts>] <lost> [0x<event_id>] <message>".
std::string trace_line(const TraceRecord& r) {
  std::ostringstream out;
  out << "[0x" << std::hex << r.timestamp << "] " << std::dec << (r.lost ? 1 : 0) << " [0x" << std::hex
      << static_cast<unsigned>(r.event_id) << "] " << r.message << '\n';
  return out.str();
}

std::string trace_json_line(const TraceRecord& r) {
  return json{{"timestamp", r.timestamp}, {"lost", r.lost}, {"event_id", r.event_id}, {"message", r.message}}.dump(
             -1, ' ', false, json::error_handler_t::replace) +
         "\n";
}

// Printable text of a string-DB string (control bytes and non-ASCII as \xNN).
std::string printable_string(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '\\') out += static_cast<char>(c);
    else out += c == '\\' ? std::string("\\\\") : "\\x" + hex_string(c, 2).substr(2);
  }
  return out;
}

int print_strings(const std::string& device, TraceStringDb& db, const TraceArgs& a, const Common& common) {
  json sections = json::array();
  std::string text;
  for (std::size_t i = 0; i < db.section_count(); ++i) {
    const TraceStringSection section = db.section(i);
    const auto bytes = db.section_bytes(i);
    json strings = json::array();
    text += "section " + std::to_string(i) + ": base " + hex_dword(section.base_address) + ", " + std::to_string(section.size) + " bytes\n";
    std::size_t at = 0;
    while (at < bytes.size()) {
      std::size_t end = at;
      while (end < bytes.size() && bytes[end] != 0) ++end;
      if (end > at) {
        const std::string_view s(reinterpret_cast<const char*>(bytes.data()) + at, end - at);
        const std::uint32_t pointer = section.base_address + static_cast<std::uint32_t>(at);
        text += "  " + hex_dword(pointer) + "  " + printable_string(s) + "\n";
        strings.push_back({{"pointer", pointer}, {"offset", at}, {"text", printable_string(s)}});
      }
      at = end + 1;
    }
    sections.push_back({{"index", i}, {"base_address", section.base_address}, {"size", section.size}, {"strings", strings}});
  }
  if (common.json) {
    cli::print_json(json{{"device", device}, {"sections", sections}});
    return cli::kOk;
  }
  print_paged(text, paging_wanted(!a.no_pager));
  return cli::kOk;
}

// No tracing driver on this host for the device: who, if anybody, owns the tracer says why.
int refuse_without_driver(FirmwareTracer& tracer, const std::string& why, const Common& common) {
  auto owner = tracer.probe_owner();
  if (!owner) return cli::report_error(owner.error().with_context(why + "; asking who owns the tracer"), common.json);
  if (*owner == TracerOwner::Someone)
    return refuse(ErrorCode::Busy, why + ", and another tool (or a driver on another host or function) owns the tracer: "
                                         "its messages are not in this host's trace file",
                  common);
  return refuse(ErrorCode::NotSupported, why + ": no driver reads this device's tracer (bind " + std::string(tracer.info().driver) +
                                             " to it on its host; mst trace --strings needs no driver)",
                common);
}

// Everything on the device's side: the tracer, its mode, the driver and its event (the library's
// checks, fwops/trace/DriverTraceSource.h), then the mask. On success the source to read; on a
// refusal the exit code (nothing was changed).
std::optional<int> settle_device(const TraceArgs& a, const Common& common, TraceSource& source) {
  DeviceOpenOptions open_options;
  if (!a.sysfs.empty()) open_options.sysfs_root = a.sysfs;
  auto device = open_device(a.device, open_options);
  if (!device) return cli::report_error(device.error(), common.json);
  const DeviceInfo& family = device->info();
  if (family.tracer == nullptr)
    return refuse(ErrorCode::NotSupported, a.device + " (" + std::string(family.name) +
                                               "): this family has no firmware tracer (it came with Connect-IB and Switch-IB)",
                  common);
  std::optional<std::uint32_t> mask;
  std::uint8_t level = 0;
  if (!a.mask.empty()) {
    auto parsed = parse_trace_mask(*family.tracer, a.mask);
    if (!parsed) return cli::report_error(parsed.error().with_context("--mask"), common.json);
    mask = *parsed;
    auto l = parse_trace_level(a.level);
    if (!l) return cli::report_error(l.error().with_context("--level"), common.json);
    level = *l;
  }
  auto tracer = FirmwareTracer::open(*device);
  if (!tracer) return cli::report_error(tracer.error(), common.json);
  if (a.strings) {
    auto db = tracer->read_strings();
    if (!db) return cli::report_error(db.error(), common.json);
    return print_strings(a.device, *db, a, common);
  }
  const std::string fifo_only = a.device + " (" + std::string(family.name) +
                                "): the tracer logs to its FIFO only; how a FIFO is read is not public, and no driver "
                                "prints its messages (mst trace --strings still reads its string DB)";
  if (!tracer->host_memory_mode()) return refuse(ErrorCode::NotSupported, fifo_only, common);  // as the firmware says
  auto lookup = look_up_driver_trace(*device);
  if (!lookup) return cli::report_error(lookup.error(), common.json);
  if (lookup->no_reading_driver()) return refuse_without_driver(*tracer, lookup->why, common);
  switch (lookup->failed) {
    case DriverTraceCheck::Passed:
      break;
    case DriverTraceCheck::FifoOnly:
      return refuse(ErrorCode::NotSupported, fifo_only, common);
    case DriverTraceCheck::EventOff:
      if (a.enable) break;  // read_driver_trace switches it on for the run
      return refuse(ErrorCode::NotSupported, lookup->why + " (or give --enable)", common);
    default:
      return refuse(ErrorCode::NotSupported, lookup->why, common);
  }
  source.dbdf = lookup->source.dbdf;
  source.event = lookup->event;
  if (mask) {
    if (auto set = tracer->set_trace_mask(*mask, level); !set) return cli::report_error(set.error(), common.json);
    std::cerr << "-I- " << a.device << ": trace mask set to " << trace_mask_text(tracer->info(), *mask)
              << " (" << hex_string(*mask) << "), level " << trace_level_name(level) << " and above; it stays set "
              << "(the firmware cannot report the mask it had)\n";
  }
  return std::nullopt;
}

int read_driver_trace(const TraceArgs& a, const Common& common, const TraceSource& source) {
  std::optional<TraceEventEnabling> enabling;
  if (a.enable) {
    auto on = TraceEventEnabling::enable(source.event);
    if (!on) return cli::report_error(on.error().with_context("--enable"), common.json);
    enabling.emplace(std::move(*on));
    if (enabling->was_off()) std::cerr << "-I- enabled " << (source.event / "enable").string() << " until mst trace ends\n";
  }
  DriverTraceReader reader(tracefs_root() / "trace", source.dbdf);
  auto format = [&](const TraceRecord& r) { return common.json ? trace_json_line(r) : trace_line(r); };
  if (a.follow) {
    std::stop_source stop;
    cli::SignalStopper stopper([&stop] { stop.request_stop(); });
    auto followed = reader.follow([&](const TraceRecord& r) { std::cout << format(r) << std::flush; }, stop.get_token());
    if (!followed) return cli::report_error(followed.error(), common.json);
    return cli::kOk;
  }
  auto records = reader.read_new();
  if (!records) return cli::report_error(records.error(), common.json);
  std::string text;
  for (const TraceRecord& r : *records) text += format(r);
  print_paged(text, paging_wanted(!a.no_pager && !common.json));
  return cli::kOk;
}

int run_trace_command(const TraceArgs& a, const Common& common) {
  if (a.mask.empty() != a.level.empty())
    return refuse(ErrorCode::InvalidArgument, "--mask and --level go together (as with mstfwtrace)", common);
  if (a.strings && (a.follow || !a.mask.empty() || a.enable))
    return refuse(ErrorCode::InvalidArgument, "--strings reads the string DB only: not with --follow, --mask or --enable", common);
  TraceSource source;
  if (const auto done = settle_device(a, common, source)) return *done;
  return read_driver_trace(a, common, source);
}

}  // namespace

void add_trace_command(CLI::App& app, std::function<int()>& run, const Common& common) {
  static TraceArgs args;
  auto* trace = app.add_subcommand(
      "trace", "the running firmware's trace messages as the mlx5 driver printed them (mstfwtrace), the trace mask, the string DB");
  trace->add_option("DEV", args.device, "the device (name forms: mst --help)")->required();
  trace->add_flag("-f,--follow", args.follow, "keep printing new messages until Ctrl-C (SIGINT/SIGTERM end it with exit 0)");
  trace->add_option("-m,--mask", args.mask,
                    "CLASSES: set the firmware's trace mask first (ICMD SET_ITRACE): class names joined by '+' "
                    "(FLASH+CMD_IF; the family's classes, as mstfwtrace names them) or a number; needs --level. "
                    "The mask stays set after mst trace ends");
  trace->add_option("-l,--level", args.level, "LEVEL: with --mask, the lowest level traced: 0-3 or DEBUG, INFO, WARNING, ERROR");
  trace->add_flag("--strings", args.strings,
                  "print the firmware's string DB (read through MTRC_STDB, over any transport; no driver needed)");
  trace->add_flag("--enable", args.enable,
                  "switch the driver's tracepoint on for the run when it is off (written back to 0 at the end)");
  trace->add_flag("--no-pager", args.no_pager, "never page (output is paged with $PAGER or less -FRX only on a terminal)");
  trace->add_option("--sysfs", args.sysfs, "sysfs PCI root (default $OPENFLINT_SYSFS_ROOT or /sys/bus/pci)");
  trace->footer(
      "\nOutput: one line per message, as mstfwtrace prints it: [0x<timestamp>] <lost 0|1> [0x<event id>] <message>; "
      "--json: one JSON object per line {\"timestamp\", \"lost\", \"event_id\", \"message\"}. Messages come from the kernel's "
      "trace file ($OPENFLINT_TRACEFS_ROOT, else /sys/kernel/tracing or /sys/kernel/debug/tracing), lines of the "
      "mlx5:mlx5_fw (or fw_tracer) event for DEV's PCI address; a message is kept only when its timestamp is after the "
      "last one kept, as mstfwtrace does.\n"
      "Refusals: 6 the family or firmware has no tracer, the tracer is FIFO-only (switches), no mlx5_core driver reads "
      "it, the event is absent or off; 5 another tool owns the tracer; 2 a bad --mask/--level; 4 the trace file "
      "cannot be read.");
  trace->callback([&run, &common] { run = [&common] { return run_trace_command(args, common); }; });
}

}  // namespace openflint::mst
