// ReplayTransport: a recorded session (replay:FILE) answering an unmodified tool, failing at the first divergence.
#include <map>

#include "devices/DeviceCatalog.h"
#include "fwops/registers/AdapterReset.h"
#include "fwops/Device.h"
#include "fwops/recording/SessionRecords.h"
#include "fwops/transports/Transports.h"

namespace openflint {
namespace {

namespace rec = session_records;
using session_records::hex;

constexpr std::string_view kReplayPrefix = "replay:";

// The recorded answer of `request`, decoded: its text, or the error the device gave.
Result<std::string_view> replayed(SessionPlayback& playback, std::string_view request) {
  OF_ASSIGN(std::string_view answer, playback.answer(request));
  return rec::decode(answer);
}

Result<void> replay_words(SessionPlayback& playback, std::string_view request, std::span<std::uint32_t> out) {
  OF_ASSIGN(std::string_view text, replayed(playback, request));
  OF_ASSIGN(std::vector<std::uint32_t> values, rec::parse_words(text));
  if (values.size() != out.size())
    return make_error(ErrorCode::InvalidImage, playback.file().string() + ": record " + std::to_string(playback.position()) +
                                                   " answers " + std::to_string(values.size()) + " words, not " +
                                                   std::to_string(out.size()));
  std::copy(values.begin(), values.end(), out.begin());
  return {};
}

class ReplayI2c final : public I2cAccess {
 public:
  ReplayI2c(SessionPlayback& playback, std::size_t max_transfer, bool costly)
      : playback_(playback), max_transfer_(max_transfer), costly_(costly) {}

  [[nodiscard]] Result<void> read(std::uint8_t device, std::uint32_t offset, std::span<std::uint8_t> out) override {
    OF_ASSIGN(std::string_view text, replayed(playback_, "ir " + hex(device) + " " + hex(offset) + " " + hex(out.size())));
    OF_ASSIGN(std::vector<std::uint8_t> bytes, rec::parse_bytes(text));
    if (bytes.size() != out.size()) return make_error(ErrorCode::InvalidImage, playback_.file().string() + ": short I2C answer");
    std::copy(bytes.begin(), bytes.end(), out.begin());
    return {};
  }
  [[nodiscard]] Result<void> write(std::uint8_t device, std::uint32_t offset, std::span<const std::uint8_t> bytes) override {
    OF_TRY(replayed(playback_, "iw " + hex(device) + " " + hex(offset) + " " + rec::bytes(bytes)));
    return {};
  }
  [[nodiscard]] std::size_t max_transfer() const override { return max_transfer_; }
  [[nodiscard]] bool costly_access() const override { return costly_; }

 private:
  SessionPlayback& playback_;
  std::size_t max_transfer_;
  bool costly_;
};

// The transport properties the "open" record names.
struct ReplayedProperties {
  std::size_t block_dwords = 1;
  bool costly = false;
  std::optional<std::size_t> i2c_transfer;
  bool i2c_costly = false;
  bool live = false;
  bool remote = false;
};

class ReplayAccess final : public RegisterAccess {
 public:
  ReplayAccess(SessionPlayback& playback, const ReplayedProperties& properties) : playback_(playback), properties_(properties) {
    if (properties.i2c_transfer) i2c_.emplace(playback, *properties.i2c_transfer, properties.i2c_costly);
  }

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override {
    std::uint32_t value = 0;
    OF_TRY(replay_words(playback_, "r " + hex(address), std::span(&value, 1)));
    return value;
  }
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override {
    OF_TRY(replayed(playback_, "w " + hex(address) + " " + hex(value)));
    return {};
  }
  [[nodiscard]] Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) override {
    return replay_words(playback_, "rb " + hex(address) + " " + hex(out.size()), out);
  }
  [[nodiscard]] Result<void> write_block(std::uint32_t address, std::span<const std::uint32_t> values) override {
    OF_TRY(replayed(playback_, "wb " + hex(address) + " " + rec::words(values)));
    return {};
  }
  [[nodiscard]] Result<void> write_sequence(std::span<const RegisterWrite> writes) override {
    OF_TRY(replayed(playback_, "ws " + rec::writes(writes)));
    return {};
  }
  [[nodiscard]] Result<void> write_then_read(std::span<const RegisterWrite> writes, std::uint32_t address,
                                             std::span<std::uint32_t> out) override {
    return replay_words(playback_, "wr " + rec::writes(writes) + " @ " + hex(address) + " " + hex(out.size()), out);
  }
  [[nodiscard]] std::size_t max_block_dwords() const override { return properties_.block_dwords; }
  [[nodiscard]] bool costly_access() const override { return properties_.costly; }
  [[nodiscard]] I2cAccess* i2c() override { return i2c_ ? &*i2c_ : nullptr; }

 private:
  SessionPlayback& playback_;
  ReplayedProperties properties_;
  std::optional<ReplayI2c> i2c_;
};

class ReplayPort final : public RegisterPort {
 public:
  ReplayPort(SessionPlayback& playback, std::size_t max_bytes) : playback_(playback), max_bytes_(max_bytes) {}

  [[nodiscard]] Result<AccessRegisterTlv> transact(const AccessRegisterTlv& request) override {
    count_access();
    OF_ASSIGN(std::string_view text, replayed(playback_, "t " + rec::tlv(request)));
    return rec::parse_tlv(text);
  }
  [[nodiscard]] Result<std::vector<AccessRegisterTlv>> transact_all(std::span<const AccessRegisterTlv> requests) override {
    std::string request = "ta";
    for (const AccessRegisterTlv& each : requests) {
      count_access();
      request += ' ' + rec::tlv(each);
    }
    OF_ASSIGN(std::string_view text, replayed(playback_, request));
    std::vector<AccessRegisterTlv> answers;
    while (text != "-" && !text.empty()) {
      const std::size_t space = text.find(' ');
      OF_ASSIGN(AccessRegisterTlv answer, rec::parse_tlv(text.substr(0, space)));
      answers.push_back(std::move(answer));
      text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    }
    if (answers.size() != requests.size()) return make_error(ErrorCode::InvalidImage, playback_.file().string() + ": answers missing");
    return answers;
  }
  [[nodiscard]] std::size_t max_register_bytes() const override { return max_bytes_; }

 private:
  SessionPlayback& playback_;
  std::size_t max_bytes_;
};

class ReplayTransport final : public DeviceTransport {
 public:
  ReplayTransport(std::shared_ptr<SessionPlayback> playback, const ReplayedProperties& properties)
      : playback_(std::move(playback)), properties_(properties), access_(*playback_, properties) {}
  ~ReplayTransport() override {
    // The recorded release; a session that ended early leaves it for the next open to diverge on.
    (void)playback_->skip("close");
  }
  ReplayTransport(const ReplayTransport&) = delete;
  ReplayTransport& operator=(const ReplayTransport&) = delete;

  [[nodiscard]] RegisterAccess& access() override { return access_; }
  // The transport opened the device's register port inside the operation about to be replayed
  // (fwops/transports/RecordingTransport.cpp Recorder): the replay opens it there too, and the
  // Device keeps it (a failed open is asked again at the next use, as when recorded).
  void open_port_where_recorded(Device& device) {
    if (playback_->next_starts_with("po ")) (void)device.register_port();
  }
  [[nodiscard]] Result<std::unique_ptr<RegisterPort>> open_register_port(Device& /*device*/) override {
    OF_ASSIGN(std::string_view text, replayed(*playback_, "po"));
    OF_ASSIGN(std::vector<std::uint32_t> bytes, rec::parse_words(text));
    if (bytes.size() != 1) return make_error(ErrorCode::InvalidImage, playback_->file().string() + ": bad register port record");
    return std::unique_ptr<RegisterPort>(std::make_unique<ReplayPort>(*playback_, bytes[0]));
  }
  // An error (a divergence included) cannot be returned here: the playback keeps it, and the
  // tool's next operation fails with it.
  [[nodiscard]] std::optional<RunningFirmware> running_firmware(Device& device) override {
    open_port_where_recorded(device);
    auto text = replayed(*playback_, "fw");
    if (!text) return std::nullopt;
    auto running = rec::parse_running(*text);
    return running ? *running : std::nullopt;
  }
  [[nodiscard]] bool running_firmware_is_live() const override { return properties_.live; }
  [[nodiscard]] bool shows_no_firmware(Device& device) override {
    open_port_where_recorded(device);
    auto text = replayed(*playback_, "nofw");
    return text && *text == "1";
  }
  [[nodiscard]] Result<void> reset(Device& device) override {
    open_port_where_recorded(device);
    OF_TRY(replayed(*playback_, "reset"));
    return {};
  }
  void plan_reset(Device& device, const ResetOptions& /*options*/, ResetPlan& plan) override {
    plan.method = "none: " + device.name() + " is a replayed session";
    plan.blockers.push_back({ErrorCode::NotSupported, "a replayed session (replay:FILE) cannot reset a device: a reset "
                                                      "reads the host (drivers, sysfs), which a recording does not hold"});
  }
  [[nodiscard]] Result<std::vector<std::uint8_t>> vpd(Device& device) override {
    open_port_where_recorded(device);
    OF_ASSIGN(std::string_view text, replayed(*playback_, "vpd"));
    return rec::parse_bytes(text);
  }
  [[nodiscard]] Result<std::vector<std::uint8_t>> firmware_command(Device& device, std::uint16_t opcode,
                                                                   std::span<const std::uint8_t> in,
                                                                   std::size_t out_bytes) override {
    open_port_where_recorded(device);
    OF_ASSIGN(std::string_view text, replayed(*playback_, transports::firmware_command_record(opcode, in, out_bytes)));
    return rec::parse_bytes(text);
  }
  [[nodiscard]] Result<void> commit(Device& device) override {
    open_port_where_recorded(device);
    OF_TRY(replayed(*playback_, "commit"));
    return {};
  }
  [[nodiscard]] Result<void> power_on(Device& device) override {
    open_port_where_recorded(device);
    OF_TRY(replayed(*playback_, "power"));
    return {};
  }
  [[nodiscard]] bool behind_bus_server() const override { return properties_.remote; }

 private:
  std::shared_ptr<SessionPlayback> playback_;
  ReplayedProperties properties_;
  ReplayAccess access_;
};

// The "open" record's KEY=VALUE fields (fwops/transports/RecordingTransport.cpp open_record).
Result<std::map<std::string, std::string, std::less<>>> open_fields(const SessionPlayback& playback, std::string_view record) {
  std::map<std::string, std::string, std::less<>> fields;
  record.remove_prefix(std::string_view("open ").size());
  while (!record.empty()) {
    const std::size_t space = record.find(' ');
    const std::string_view part = record.substr(0, space);
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos)
      return make_error(ErrorCode::InvalidImage, playback.file().string() + ": bad open record field '" + rec::field(part) + "'");
    fields.emplace(std::string(part.substr(0, eq)), rec::unescape(part.substr(eq + 1)));
    record = space == std::string_view::npos ? std::string_view{} : record.substr(space + 1);
  }
  for (std::string_view key : {"hw", "rev", "device", "blk", "costly", "i2c", "i2ccostly", "live", "remote", "name"})
    if (!fields.contains(key))
      return make_error(ErrorCode::InvalidImage, playback.file().string() + ": the open record lacks " + std::string(key));
  return fields;
}

Result<std::size_t> number_field(const SessionPlayback& playback, const std::string& value) {
  auto words = rec::parse_words(value);
  if (!words || words->size() != 1) return make_error(ErrorCode::InvalidImage, playback.file().string() + ": bad number '" + value + "'");
  return (*words)[0];
}

}  // namespace

bool transports::replay_matches(std::string_view name, const DeviceOpenOptions& /*options*/) {
  return name.starts_with(kReplayPrefix);
}

Result<Device> transports::open_replay(std::string_view name, const DeviceOpenOptions& /*options*/) {
  SignalDeferral opening;
  const std::string_view file = name.substr(kReplayPrefix.size());
  if (file.empty()) return make_error(ErrorCode::InvalidArgument, "device name 'replay:' lacks a FILE");
  OF_ASSIGN(std::shared_ptr<SessionPlayback> playback, SessionPlayback::of(std::filesystem::path(file)));
  OF_ASSIGN(std::string_view record, playback->next());
  if (!record.starts_with("open ")) {
    // Put back is not possible: the playback is now diverged, as the tool's open did not match.
    return make_error(ErrorCode::Mismatch, "replay of " + playback->file().string() + " diverged at record " +
                                               std::to_string(playback->position()) + ": the tool opened a device, the recording has '" +
                                               rec::escape(record.substr(0, 120)) + "'");
  }
  OF_ASSIGN(auto fields, open_fields(*playback, record));
  ReplayedProperties properties;
  OF_ASSIGN(properties.block_dwords, number_field(*playback, fields["blk"]));
  properties.costly = fields["costly"] == "1";
  if (fields["i2c"] != "-") {
    OF_ASSIGN(properties.i2c_transfer, number_field(*playback, fields["i2c"]));
  }
  properties.i2c_costly = fields["i2ccostly"] == "1";
  properties.live = fields["live"] == "1";
  properties.remote = fields["remote"] == "1";
  OF_ASSIGN(const std::size_t hw_id, number_field(*playback, fields["hw"]));
  const DeviceInfo* info = nullptr;
  for (const DeviceInfo& each : all_devices()) {
    const std::string revision = each.hw_revision ? hex(*each.hw_revision) : "-";
    if (each.hw_id == hw_id && each.name == fields["device"] && revision == fields["rev"]) info = &each;
  }
  if (info == nullptr)
    return make_error(ErrorCode::NotFound, playback->file().string() + ": the catalog has no " + fields["device"] + " (hw id " +
                                               fields["hw"] + ")");
  return Device::over(std::move(opening), fields["name"], std::make_unique<ReplayTransport>(std::move(playback), properties), *info);
}

}  // namespace openflint
