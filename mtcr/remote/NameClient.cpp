// NameClient: the name server's address from the environment or ibadm.conf, and its requests.
#include "mtcr/remote/NameClient.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "core/InputFile.h"
#include "core/KeyValueText.h"
#include "mtcr/remote/BusProtocol.h"

namespace openflint {
namespace {

constexpr std::uint64_t kMaxIbadmConfBytes = 1 << 20;

const KeyValueLine* last_setting(const std::vector<KeyValueLine>& settings, std::string_view key) {
  const KeyValueLine* found = nullptr;
  for (const auto& s : settings)
    if (s.key == key) found = &s;
  return found;
}

Result<RemoteHost> tcp_host(std::string_view text, std::string_view source, std::size_t line) {
  auto host = parse_remote_host(text);
  if (!host) return make_error(line_error(source, line, host.error().message()));
  if (host->transport != RemoteTransport::Tcp)
    return make_error(line_error(source, line, "the name server is reached over TCP (HOST:PORT), not ssh"));
  return *host;
}

}  // namespace

Result<std::optional<RemoteHost>> name_server_address_of(const std::vector<KeyValueLine>& settings,
                                                         std::string_view source) {
  if (const auto* address = last_setting(settings, "name_server_address")) {
    OF_ASSIGN(RemoteHost host, tcp_host(address->value, source, address->line));
    const std::string& v = address->value;
    const bool has_port = v.starts_with('[') ? v.find("]:") != std::string::npos
                                             : (v.find(':') != std::string::npos && v.find(':') == v.rfind(':'));
    if (!has_port) host.port = kNameServerDefaultPort;  // HOST alone: the name server's port, not the bus server's
    return std::optional<RemoteHost>(host);
  }
  const auto* enabled = last_setting(settings, "name_server");
  if (enabled == nullptr || enabled->value != "yes") return std::optional<RemoteHost>();
  RemoteHost host{.transport = RemoteTransport::Tcp, .user = {}, .host = "127.0.0.1", .port = kNameServerDefaultPort};
  if (const auto* listen = last_setting(settings, "name_server_listen"); listen && listen->value != "0.0.0.0" && listen->value != "::")
    host.host = listen->value;
  if (const auto* port = last_setting(settings, "name_server_port")) {
    const auto v = std::strtoul(port->value.c_str(), nullptr, 10);
    if (v >= 1 && v <= 65535) host.port = static_cast<std::uint16_t>(v);
  }
  return std::optional<RemoteHost>(host);
}

Result<std::optional<NameServerLocation>> find_name_server() {
  if (const char* env = std::getenv("OPENFLINT_NAME_SERVER"); env != nullptr && *env != '\0') {
    OF_ASSIGN(RemoteHost host, tcp_host(env, "OPENFLINT_NAME_SERVER", 1));
    return std::optional<NameServerLocation>(NameServerLocation{.server = host, .source = "OPENFLINT_NAME_SERVER"});
  }
  std::string path = "/etc/ibadm.conf";
  const char* conf = std::getenv("OPENFLINT_IBADM_CONF");
  if (conf != nullptr && *conf != '\0') {
    path = conf;
  } else {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return std::optional<NameServerLocation>();
  }
  OF_ASSIGN(auto file, InputFile::open(path, kMaxIbadmConfBytes));
  OF_ASSIGN(auto bytes, file.read_all());
  OF_ASSIGN(auto settings, parse_key_value_text(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path));
  OF_ASSIGN(auto host, name_server_address_of(settings, path));
  if (!host) return std::optional<NameServerLocation>();
  return std::optional<NameServerLocation>(NameServerLocation{.server = *host, .source = path});
}

Result<NameClient> NameClient::connect(const RemoteHost& server, std::chrono::milliseconds timeout) {
  const std::string where = "name server " + to_string(server);
  auto connection = BusConnection::connect_tcp(server.host, server.port, timeout);
  if (!connection) return make_error(std::move(connection).error().with_context(where));
  NameClient client(std::move(*connection), where);
  client.timeout_ = timeout;
  OF_ASSIGN(const std::string version, client.ask(name_request(NameCommand::Version), timeout));
  if (version != kNameProtocolVersion)
    return make_error(ErrorCode::Io, where + ": not a name server (V answered '" + version.substr(0, 64) + "')");
  return client;
}

Result<std::string> NameClient::ask(const NameRequest& request, std::chrono::milliseconds timeout) {
  if (auto sent = connection_.send(format_name_request(request)); !sent)
    return make_error(std::move(sent).error().with_context(where_));
  auto reply = connection_.receive_reply(kNameMaxReplyBytes, timeout);
  if (!reply) return make_error(std::move(reply).error().with_context(where_));
  if (reply->starts_with("E ")) {
    const std::string text = reply->substr(2);
    const ErrorCode code = text.starts_with(kNameNotFound)   ? ErrorCode::NotFound
                           : text.starts_with(kNameAmbiguous) ? ErrorCode::InvalidArgument
                                                              : ErrorCode::Io;
    return make_error(code, where_ + ": " + text);
  }
  auto payload = parse_ok_reply(*reply);
  if (!payload) return make_error(std::move(payload).error().with_context(where_));
  return *payload;
}

Result<NameEntry> NameClient::entry(const NameRequest& request) {
  OF_ASSIGN(const std::string text, ask(request, timeout_));
  auto e = parse_name_entry(text);
  if (!e) return make_error(std::move(e).error().with_context(where_));
  return *e;
}

Result<NameEntry> NameClient::lookup(std::string_view name) {
  if (auto ok = check_system_name(name); !ok) return make_error(ok.error());
  NameRequest r = name_request(NameCommand::Lookup);
  r.name = std::string(name);
  return entry(r);
}
Result<NameEntry> NameClient::query_guid(std::uint64_t guid) {
  NameRequest r = name_request(NameCommand::Query);
  r.by_guid = true;
  r.guid = guid;
  return entry(r);
}
Result<NameEntry> NameClient::query_lid(std::uint16_t lid) {
  NameRequest r = name_request(NameCommand::Query);
  r.lid = lid;
  return entry(r);
}

Result<std::vector<NameEntry>> NameClient::list() {
  OF_ASSIGN(const std::string count_text, ask(name_request(NameCommand::List), timeout_));
  const auto count = std::strtoull(count_text.c_str(), nullptr, 10);
  if (count > kNameMaxEntries || count_text.empty()) return make_error(ErrorCode::Io, where_ + ": a bad L count");
  std::vector<NameEntry> out;
  for (std::size_t i = 0; i < count; ++i) {
    auto text = connection_.receive_reply(kNameMaxReplyBytes, timeout_);
    if (!text) return make_error(std::move(text).error().with_context(where_));
    auto e = parse_name_entry(*text);
    if (!e) return make_error(std::move(e).error().with_context(where_));
    out.push_back(std::move(*e));
  }
  return out;
}

Result<std::size_t> NameClient::refresh(std::chrono::milliseconds timeout) {
  OF_ASSIGN(const std::string count, ask(name_request(NameCommand::Refresh), timeout));
  return static_cast<std::size_t>(std::strtoull(count.c_str(), nullptr, 10));
}

}  // namespace openflint
