// I2cCommand: `mst i2c DEV read I2C_ADDR OFFSET [LEN]` and `mst i2c DEV write I2C_ADDR OFFSET HEXBYTES` —
// the I2C bus behind a device (in-band: ExtPortAccess MADs; sim:PATH: the simulator's I2C master).
#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>
#include <span>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/HexString.h"
#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "cli/TextArgs.h"
#include "fwops/Device.h"
#include "mst/Commands.h"

namespace openflint::mst {
namespace {

struct I2cArgs {
  std::string device;
  std::string op;
  std::string slave;
  std::string offset;
  std::string data;  // read: LEN; write: hex bytes
  int busy_ms = 200;
};

Result<std::vector<std::uint8_t>> from_hex(std::string text) {
  if (text.starts_with("0x") || text.starts_with("0X")) text = text.substr(2);
  if (text.empty() || text.size() % 2 != 0)
    return make_error(ErrorCode::InvalidArgument, "data '" + text + "': an even number of hex digits expected");
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const std::string pair = text.substr(i, 2);
    if (pair.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      return make_error(ErrorCode::InvalidArgument, "data: '" + pair + "' is not a hex byte");
    out.push_back(static_cast<std::uint8_t>(std::stoul(pair, nullptr, 16)));
  }
  return out;
}

// Runs `op` until it succeeds or fails other than Busy (an EEPROM in its write cycle does not
// acknowledge for a few milliseconds), for at most `busy_ms`.
template <typename Op>
Result<void> until_acknowledged(Op op, int busy_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_ms);
  while (true) {
    auto r = op();
    if (r || r.error().code() != ErrorCode::Busy || std::chrono::steady_clock::now() >= deadline) return r;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

int run_i2c(const I2cArgs& a, const Common& common) {
  auto slave = cli::parse_number(a.slave, "i2c address");
  if (!slave) return cli::report_error(slave.error(), common.json);
  if (*slave > 0x7f)
    return cli::report_error(Error(ErrorCode::InvalidArgument, "i2c address " + a.slave + " is not 7 bits"), common.json);
  auto offset = cli::parse_number(a.offset, "offset");
  if (!offset) return cli::report_error(offset.error(), common.json);
  if (*offset > 0xffffffffull)
    return cli::report_error(Error(ErrorCode::InvalidArgument, "offset " + a.offset + " does not fit in 32 bits"), common.json);
  std::vector<std::uint8_t> bytes;
  if (a.op == "read") {
    auto length = cli::parse_number(a.data.empty() ? "1" : a.data, "length");
    if (!length) return cli::report_error(length.error(), common.json);
    if (*length == 0 || *length > 0x10000)
      return cli::report_error(Error(ErrorCode::InvalidArgument, "length must be 1..65536"), common.json);
    bytes.resize(*length);
  } else {
    auto parsed = from_hex(a.data);
    if (!parsed) return cli::report_error(parsed.error(), common.json);
    bytes = std::move(*parsed);
  }
  auto device = open_device(a.device, DeviceOpenOptions{});
  if (!device) return cli::report_error(device.error(), common.json);
  auto bus = device->i2c();
  if (!bus) return cli::report_error(bus.error(), common.json);
  I2cAccess& i2c = **bus;
  const auto dev = static_cast<std::uint8_t>(*slave);
  const auto base = static_cast<std::uint32_t>(*offset);
  if (a.op == "write") {
    // One write transaction: an EEPROM wraps a write at its page end, so splitting is the
    // caller's decision (flint's EEPROM burner knows the part's pages).
    if (bytes.size() > i2c.max_transfer())
      return cli::report_error(Error(ErrorCode::InvalidArgument, std::to_string(bytes.size()) + " bytes: one write carries at most " +
                                                                     std::to_string(i2c.max_transfer())),
                               common.json);
    auto w = until_acknowledged([&] { return i2c.write(dev, base, bytes); }, a.busy_ms);
    if (!w) return cli::report_error(w.error().with_context(device->name()), common.json);
    if (auto saved = device->commit(); !saved) return cli::report_error(saved.error(), common.json);
  } else {
    for (std::size_t done = 0; done < bytes.size();) {
      const std::size_t n = std::min(i2c.max_transfer(), bytes.size() - done);
      auto chunk = std::span<std::uint8_t>(bytes).subspan(done, n);
      auto r = until_acknowledged([&] { return i2c.read(dev, base + static_cast<std::uint32_t>(done), chunk); }, a.busy_ms);
      if (!r) return cli::report_error(r.error().with_context(device->name()), common.json);
      done += n;
    }
  }
  if (common.json) {
    nlohmann::json doc{{"ok", true}, {"device", a.device}, {"i2c_address", *slave}, {"offset", *offset}};
    if (a.op == "read") doc["data"] = hex_digits(bytes);
    cli::print_json(doc);
  } else if (a.op == "read") {
    std::cout << hex_digits(bytes) << '\n';
  }
  return cli::kOk;
}

}  // namespace

void add_i2c_command(CLI::App& app, std::function<int()>& run, const Common& common) {
  static I2cArgs a;  // outlives parsing: `run` is called after this returns
  CLI::App* i2c = app.add_subcommand(
      "i2c", "read or write the I2C bus behind a device (switch EEPROMs): in-band over ExtPortAccess MADs");
  i2c->add_option("DEV", a.device, "the device, an in-band node or a simulated one (name forms: mst --help)")->required();
  i2c->add_option("OP", a.op, "read | write")->required()->check(CLI::IsMember({"read", "write"}));
  i2c->add_option("I2C_ADDR", a.slave, "7-bit I2C device address (e.g. 0x56)")->required();
  i2c->add_option("OFFSET", a.offset, "memory offset in the I2C device")->required();
  i2c->add_option("DATA", a.data, "read: number of bytes (default 1); write: hex bytes, e.g. 0a0b0c");
  i2c->add_option("--busy-ms", a.busy_ms, "retry a device that does not acknowledge for this long (default 200)")
      ->check(CLI::NonNegativeNumber);
  i2c->callback([&run, &common] { run = [&common] { return run_i2c(a, common); }; });
}

}  // namespace openflint::mst
