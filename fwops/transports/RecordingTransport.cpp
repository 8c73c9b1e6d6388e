// RecordingTransport: a decorator over any transport that writes each operation and its answer to a session file.
#include <optional>

#include "fwops/Device.h"
#include "fwops/recording/SessionRecords.h"
#include "fwops/transports/Transports.h"

namespace openflint {
namespace {

namespace rec = session_records;
using session_records::hex;

// What the decorators of one device write through. A transport-level operation (the running
// firmware, a reset, the VPD, ...) is one record: what its transport does inside it (MGIR through
// the register port, a bus server's commands) is not recorded apart, since a replay answers the
// operation whole. Opening the device's register port inside one is recorded all the same (the
// Device keeps the port): the replay opens it at the same point.
class Recorder {
 public:
  explicit Recorder(SessionLog& log) : log_(log) {}
  void append(std::string_view record) {
    if (inside_ == 0) log_.append(record);
  }
  void append_always(std::string_view record) { log_.append(record); }
  [[nodiscard]] SessionLog& log() { return log_; }

  // While one lives, nothing is recorded but the operation that made it.
  class Whole {
   public:
    explicit Whole(Recorder& recorder) : recorder_(recorder) { ++recorder_.inside_; }
    ~Whole() { --recorder_.inside_; }
    Whole(const Whole&) = delete;
    Whole& operator=(const Whole&) = delete;

   private:
    Recorder& recorder_;
  };

 private:
  SessionLog& log_;
  int inside_ = 0;
};

class RecordingI2c final : public I2cAccess {
 public:
  RecordingI2c(I2cAccess& inner, Recorder& log) : inner_(inner), log_(log) {}

  [[nodiscard]] Result<void> read(std::uint8_t device, std::uint32_t offset, std::span<std::uint8_t> out) override {
    const std::string request = "ir " + hex(device) + " " + hex(offset) + " " + hex(out.size());
    auto done = inner_.read(device, offset, out);
    log_.append(done ? rec::answered(request, rec::bytes(out)) : rec::failed(request, done.error()));
    return done;
  }
  [[nodiscard]] Result<void> write(std::uint8_t device, std::uint32_t offset, std::span<const std::uint8_t> bytes) override {
    auto done = inner_.write(device, offset, bytes);
    log_.append(rec::outcome("iw " + hex(device) + " " + hex(offset) + " " + rec::bytes(bytes), done));
    return done;
  }
  [[nodiscard]] std::size_t max_transfer() const override { return inner_.max_transfer(); }
  [[nodiscard]] bool costly_access() const override { return inner_.costly_access(); }

 private:
  I2cAccess& inner_;
  Recorder& log_;
};

class RecordingAccess final : public RegisterAccess {
 public:
  RecordingAccess(RegisterAccess& inner, Recorder& log) : inner_(inner), log_(log) {}

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override {
    const std::string request = "r " + hex(address);
    auto value = inner_.read32(address);
    log_.append(value ? rec::answered(request, hex(*value)) : rec::failed(request, value.error()));
    return value;
  }
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override {
    auto done = inner_.write32(address, value);
    log_.append(rec::outcome("w " + hex(address) + " " + hex(value), done));
    return done;
  }
  [[nodiscard]] Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) override {
    const std::string request = "rb " + hex(address) + " " + hex(out.size());
    auto done = inner_.read_block(address, out);
    log_.append(done ? rec::answered(request, rec::words(out)) : rec::failed(request, done.error()));
    return done;
  }
  [[nodiscard]] Result<void> write_block(std::uint32_t address, std::span<const std::uint32_t> values) override {
    auto done = inner_.write_block(address, values);
    log_.append(rec::outcome("wb " + hex(address) + " " + rec::words(values), done));
    return done;
  }
  [[nodiscard]] Result<void> write_sequence(std::span<const RegisterWrite> writes) override {
    auto done = inner_.write_sequence(writes);
    log_.append(rec::outcome("ws " + rec::writes(writes), done));
    return done;
  }
  [[nodiscard]] Result<void> write_then_read(std::span<const RegisterWrite> writes, std::uint32_t address,
                                             std::span<std::uint32_t> out) override {
    const std::string request = "wr " + rec::writes(writes) + " @ " + hex(address) + " " + hex(out.size());
    auto done = inner_.write_then_read(writes, address, out);
    log_.append(done ? rec::answered(request, rec::words(out)) : rec::failed(request, done.error()));
    return done;
  }
  [[nodiscard]] std::size_t max_block_dwords() const override { return inner_.max_block_dwords(); }
  [[nodiscard]] bool costly_access() const override { return inner_.costly_access(); }
  [[nodiscard]] I2cAccess* i2c() override {
    I2cAccess* bus = inner_.i2c();
    if (bus == nullptr) return nullptr;
    if (!i2c_) i2c_.emplace(*bus, log_);
    return &*i2c_;
  }

 private:
  RegisterAccess& inner_;
  Recorder& log_;
  std::optional<RecordingI2c> i2c_;
};

class RecordingPort final : public RegisterPort {
 public:
  RecordingPort(std::unique_ptr<RegisterPort> inner, Recorder& log) : inner_(std::move(inner)), log_(log) {}

  [[nodiscard]] Result<AccessRegisterTlv> transact(const AccessRegisterTlv& request) override {
    count_access();
    const std::string text = "t " + rec::tlv(request);
    auto answer = inner_->transact(request);
    log_.append(answer ? rec::answered(text, rec::tlv(*answer)) : rec::failed(text, answer.error()));
    return answer;
  }
  [[nodiscard]] Result<std::vector<AccessRegisterTlv>> transact_all(std::span<const AccessRegisterTlv> requests) override {
    std::string text = "ta";
    for (const AccessRegisterTlv& request : requests) {
      count_access();
      text += ' ' + rec::tlv(request);
    }
    auto answers = inner_->transact_all(requests);
    if (!answers) {
      log_.append(rec::failed(text, answers.error()));
      return answers;
    }
    std::string answer_text;
    for (const AccessRegisterTlv& answer : *answers) answer_text += (answer_text.empty() ? "" : " ") + rec::tlv(answer);
    log_.append(rec::answered(text, answer_text.empty() ? "-" : answer_text));
    return answers;
  }
  [[nodiscard]] std::size_t max_register_bytes() const override { return inner_->max_register_bytes(); }

 private:
  std::unique_ptr<RegisterPort> inner_;
  Recorder& log_;
};

class RecordingTransport final : public DeviceTransport {
 public:
  RecordingTransport(std::unique_ptr<DeviceTransport> inner, SessionLog& log)
      : inner_(std::move(inner)), recorder_(log), access_(inner_->access(), recorder_) {}
  ~RecordingTransport() override {
    recorder_.append("close");
    (void)recorder_.log().flush();  // a failed write is reported by the next open's flush
  }
  RecordingTransport(const RecordingTransport&) = delete;
  RecordingTransport& operator=(const RecordingTransport&) = delete;

  [[nodiscard]] RegisterAccess& access() override { return access_; }
  [[nodiscard]] Result<std::unique_ptr<RegisterPort>> open_register_port(Device& device) override {
    auto port = inner_->open_register_port(device);
    if (!port) {
      recorder_.append_always(rec::failed("po", port.error()));
      return port;
    }
    recorder_.append_always(rec::answered("po", hex((*port)->max_register_bytes())));
    return std::unique_ptr<RegisterPort>(std::make_unique<RecordingPort>(std::move(*port), recorder_));
  }
  [[nodiscard]] I2cAccess* i2c() override {
    I2cAccess* bus = inner_->i2c();
    if (bus == nullptr) return nullptr;
    if (!i2c_) i2c_.emplace(*bus, recorder_);
    return &*i2c_;
  }
  [[nodiscard]] std::optional<RunningFirmware> running_firmware(Device& device) override {
    auto running = [&] {
      Recorder::Whole whole(recorder_);
      return inner_->running_firmware(device);
    }();
    recorder_.append(rec::answered("fw", rec::running(running)));
    return running;
  }
  [[nodiscard]] bool running_firmware_is_live() const override { return inner_->running_firmware_is_live(); }
  [[nodiscard]] bool shows_no_firmware(Device& device) override {
    const bool none = [&] {
      Recorder::Whole whole(recorder_);
      return inner_->shows_no_firmware(device);
    }();
    recorder_.append(rec::answered("nofw", none ? "1" : "0"));
    return none;
  }
  [[nodiscard]] Result<void> reset(Device& device) override {
    auto done = [&] {
      Recorder::Whole whole(recorder_);
      return inner_->reset(device);
    }();
    recorder_.append(rec::outcome("reset", done));
    return done;
  }
  // A reset's plan reads the host (sysfs, drivers) besides the device: not recorded, so a
  // replayed session cannot reset (fwops/transports/ReplayTransport.cpp).
  void plan_reset(Device& device, const ResetOptions& options, ResetPlan& plan) override {
    inner_->plan_reset(device, options, plan);
  }
  [[nodiscard]] Result<std::vector<std::string>> reset_as_planned(Device& device, const ResetPlan& plan,
                                                                  const ResetOptions& options) override {
    return inner_->reset_as_planned(device, plan, options);
  }
  [[nodiscard]] Result<MfrlRegister> query_reset_register(Device& device) override {
    return inner_->query_reset_register(device);
  }
  [[nodiscard]] Result<MfrlRegister> arm_reset_register(Device& device, int level) override {
    return inner_->arm_reset_register(device, level);
  }
  [[nodiscard]] Result<std::vector<std::uint8_t>> vpd(Device& device) override {
    auto bytes = [&] {
      Recorder::Whole whole(recorder_);
      return inner_->vpd(device);
    }();
    recorder_.append(bytes ? rec::answered("vpd", rec::bytes(*bytes)) : rec::failed("vpd", bytes.error()));
    return bytes;
  }
  [[nodiscard]] Result<void> commit(Device& device) override {
    auto done = [&] {
      Recorder::Whole whole(recorder_);
      return inner_->commit(device);
    }();
    recorder_.append(rec::outcome("commit", done));
    return done;
  }
  [[nodiscard]] Result<void> power_on(Device& device) override {
    auto done = [&] {
      Recorder::Whole whole(recorder_);
      return inner_->power_on(device);
    }();
    recorder_.append(rec::outcome("power", done));
    return done;
  }
  [[nodiscard]] Result<std::vector<std::uint8_t>> firmware_command(Device& device, std::uint16_t opcode,
                                                                   std::span<const std::uint8_t> in,
                                                                   std::size_t out_bytes) override {
    auto answer = [&] {
      Recorder::Whole whole(recorder_);
      return inner_->firmware_command(device, opcode, in, out_bytes);
    }();
    const std::string request = transports::firmware_command_record(opcode, in, out_bytes);
    recorder_.append(answer ? rec::answered(request, rec::bytes(*answer)) : rec::failed(request, answer.error()));
    return answer;
  }
  [[nodiscard]] sim::SimDevice* simulator() override { return inner_->simulator(); }
  [[nodiscard]] const std::filesystem::path& pci_dir() const override { return inner_->pci_dir(); }
  [[nodiscard]] bool behind_bus_server() const override { return inner_->behind_bus_server(); }
  [[nodiscard]] std::uint64_t mads_sent() const override { return inner_->mads_sent(); }
  [[nodiscard]] std::string_view reached_over() const override { return inner_->reached_over(); }

 private:
  std::unique_ptr<DeviceTransport> inner_;
  Recorder recorder_;
  RecordingAccess access_;
  std::optional<RecordingI2c> i2c_;
};

}  // namespace

std::string transports::firmware_command_record(std::uint16_t opcode, std::span<const std::uint8_t> in,
                                                std::size_t out_bytes) {
  return "fc " + hex(opcode) + " " + hex(out_bytes) + " " + rec::bytes(in);
}

std::string transports::open_record(Device& device) {
  DeviceTransport& transport = device.transport();
  I2cAccess* bus = transport.i2c();
  const DeviceInfo& info = device.info();
  return "open hw=" + hex(info.hw_id) + " rev=" + (info.hw_revision ? hex(*info.hw_revision) : "-") +
         " device=" + rec::field(info.name) + " blk=" + hex(transport.access().max_block_dwords()) +
         " costly=" + (transport.access().costly_access() ? "1" : "0") +
         " i2c=" + (bus != nullptr ? hex(bus->max_transfer()) : "-") +
         " i2ccostly=" + (bus != nullptr && bus->costly_access() ? "1" : "0") +
         " live=" + (transport.running_firmware_is_live() ? "1" : "0") +
         " remote=" + (transport.behind_bus_server() ? "1" : "0") + " name=" + rec::field(device.name());
}

Result<void> transports::record_session(Device& device, SessionLog& log) {
  log.append(open_record(device));
  OF_TRY(log.flush());
  device.wrap_transport([&log](std::unique_ptr<DeviceTransport> inner) -> std::unique_ptr<DeviceTransport> {
    return std::make_unique<RecordingTransport>(std::move(inner), log);
  });
  return {};
}

}  // namespace openflint
