// WebServer: httplib routes over DeviceApi, guarded by RequestGuard and the allow-list.
#include "web/WebServer.h"

#include <arpa/inet.h>

#include <algorithm>
#include <regex>
#include <thread>

#include <httplib.h>

#include "cli/ErrorReport.h"
#include "cli/JsonOutput.h"
#include "cli/TextArgs.h"
#include "web/AccessToken.h"
#include "web/Assets.h"
#include "web/DeviceApi.h"
#include "web/FabricApi.h"
#include "web/FirmwareApi.h"
#include "web/WebJobs.h"
#include "web/RequestGuard.h"

namespace openflint {
namespace {

constexpr const char* kJson = "application/json";
constexpr const char* kTokenCookie = "openflint_token";

// The HTTP status for an error of the API.
int status_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidArgument: return 400;
    case ErrorCode::PermissionDenied: return 403;
    case ErrorCode::NotFound: return 404;
    case ErrorCode::Busy: return 409;
    case ErrorCode::InvalidImage: return 422;
    case ErrorCode::NotSupported: return 501;
    case ErrorCode::Timeout: return 504;
    default: return 500;
  }
}

void reply_json(httplib::Response& res, const nlohmann::json& doc, int status = 200) {
  res.status = status;
  res.set_content(cli::versioned(doc).dump(1), kJson);
}

void reply_error(httplib::Response& res, const Error& error) {
  reply_json(res, cli::error_json(error), status_for(error.code()));
}

bool loopback_listen(const std::string& address) {
  const auto peer = parse_peer_address(address);
  return peer && is_loopback(*peer);
}

std::string host_part(const std::string& address) {
  return address.find(':') != std::string::npos ? "[" + address + "]" : address;
}

std::string cookie_value(const std::string& cookies, const std::string& name) {
  std::size_t at = 0;
  while (at < cookies.size()) {
    const std::size_t end = std::min(cookies.find(';', at), cookies.size());
    std::string item = cookies.substr(at, end - at);
    item.erase(0, item.find_first_not_of(' '));
    if (item.rfind(name + "=", 0) == 0) return item.substr(name.size() + 1);
    at = end + 1;
  }
  return {};
}

// The index in /api/devices/INDEX/...: matches[1] of a route's regex.
std::size_t index_of(const httplib::Request& req) { return static_cast<std::size_t>(std::stoul(req.matches[1])); }

}  // namespace

struct WebServer::State {
  WebOptions options;
  DeviceApi api;
  WebJobs jobs;          // burns and identity edits; its destructor waits for them
  FirmwareApi firmware{api, jobs};
  httplib::Server server;
  int port = 0;
  std::vector<std::string> hosts;  // accepted Host values; empty: any
  std::thread prefetch;            // the first device list, asked while the user opens the URL
  // mst web --fabric: the Fabric page's documents.
  std::unique_ptr<FabricApi> fabric = options.fabric ? std::make_unique<FabricApi>(*options.fabric, options.devices) : nullptr;

  explicit State(WebOptions o)
      : options(std::move(o)), api(options.devices, options.open_options, options.read_only, options.audit) {}

  bool client_allowed(const std::string& remote) const {
    if (options.allow.empty()) return true;  // loopback listen only (bind() checks)
    const auto peer = parse_peer_address(remote);
    if (!peer) return false;
    for (const ClientNetwork& n : options.allow)
      if (n.contains(*peer)) return true;
    return false;
  }

  httplib::Server::HandlerResponse guard(const httplib::Request& req, httplib::Response& res) {
    if (!client_allowed(req.remote_addr)) {
      reply_json(res, cli::error_json(Error(ErrorCode::PermissionDenied, "client " + req.remote_addr + " is not allowed")), 403);
      return httplib::Server::HandlerResponse::Handled;
    }
    GuardedRequest g;
    g.method = req.method;
    g.path = req.target.substr(0, req.target.find('?'));
    g.host = req.get_header_value("Host");
    g.query_token = req.get_param_value("token");
    g.header_token = req.get_header_value("X-Openflint-Token");
    g.cookie_token = cookie_value(req.get_header_value("Cookie"), kTokenCookie);
    g.origin = req.get_header_value("Origin");
    g.fetch_site = req.get_header_value("Sec-Fetch-Site");
    const GuardVerdict verdict = check_request(g, options.token, hosts);
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Referrer-Policy", "no-referrer");
    res.set_header("Cache-Control", "no-store");
    res.set_header("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; form-action 'self'");
    if (verdict.status != 200) {
      if (!safe(req.method) && options.audit) options.audit("web " + req.remote_addr + ": refused " + req.method + " " + g.path + ": " + verdict.reason);
      reply_json(res, cli::error_json(Error(verdict.status == 400 ? ErrorCode::InvalidArgument : ErrorCode::PermissionDenied, verdict.reason)),
                 verdict.status);
      return httplib::Server::HandlerResponse::Handled;
    }
    if (oversized(req, g.path)) {
      reply_json(res, cli::error_json(Error(ErrorCode::InvalidArgument, "the request is too large")), 413);
      return httplib::Server::HandlerResponse::Handled;
    }
    if (token_matches(g.query_token, options.token))  // the printed URL: later requests carry the cookie
      res.set_header("Set-Cookie", std::string(kTokenCookie) + "=" + options.token + "; HttpOnly; SameSite=Strict; Path=/");
    return httplib::Server::HandlerResponse::Unhandled;
  }

  // A body larger than max_request_bytes, or of unknown length, anywhere but the image upload.
  bool oversized(const httplib::Request& req, const std::string& path) const {
    static const std::regex upload(R"(/api/devices/\d{1,6}/image)");
    if (req.method == "POST" && std::regex_match(path, upload)) return false;
    if (req.has_header("Transfer-Encoding")) return true;
    const std::string length = req.get_header_value("Content-Length");
    if (length.empty()) return false;
    return length.size() > 12 || length.find_first_not_of("0123456789") != std::string::npos ||
           std::stoull(length) > options.max_request_bytes;
  }

  static bool safe(const std::string& method) { return method == "GET" || method == "HEAD"; }

  void routes() {
    server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) { return guard(req, res); });
    // Bodies up to an image's size reach the upload route only (guard() refuses the others').
    server.set_payload_max_length(std::max<std::uint64_t>(options.max_request_bytes, FirmwareApi::kMaxUploadBytes));
    server.Get("/api/devices", [this](const httplib::Request& req, httplib::Response& res) {
      reply_json(res, api.devices_document(req.has_param("refresh")));
    });
    server.Get(R"(/api/devices/(\d{1,6})/registers)", [this](const httplib::Request& req, httplib::Response& res) {
      auto doc = api.registers_document(index_of(req));
      if (!doc) return reply_error(res, doc.error());
      reply_json(res, *doc);
    });
    server.Get(R"(/api/devices/(\d{1,6})/dump\.txt)", [this](const httplib::Request& req, httplib::Response& res) {
      auto text = api.dump_text(index_of(req));
      if (!text) return reply_error(res, text.error());
      res.set_header("Content-Disposition", "attachment; filename=\"dump-" + std::to_string(index_of(req)) + ".txt\"");
      res.set_content(*text, "text/plain; charset=utf-8");
    });
    server.Get(R"(/api/devices/(\d{1,6})/verify)", [this](const httplib::Request& req, httplib::Response& res) {
      auto doc = api.verify_document(index_of(req));
      if (!doc) return reply_error(res, doc.error());
      reply_json(res, *doc);
    });
    server.Get(R"(/api/devices/(\d{1,6})/flash)", [this](const httplib::Request& req, httplib::Response& res) {
      const auto offset = cli::parse_number(req.has_param("offset") ? req.get_param_value("offset") : "0", "offset");
      const auto length = cli::parse_number(req.has_param("length") ? req.get_param_value("length") : "256", "length");
      if (!offset) return reply_error(res, offset.error());
      if (!length) return reply_error(res, length.error());
      auto doc = api.flash_document(index_of(req), *offset, *length);
      if (!doc) return reply_error(res, doc.error());
      reply_json(res, *doc);
    });
    server.Post(R"(/api/devices/(\d{1,6})/field)", [this](const httplib::Request& req, httplib::Response& res) {
      const auto body = nlohmann::json::parse(req.body, nullptr, false);
      if (body.is_discarded()) return reply_error(res, Error(ErrorCode::InvalidArgument, "the body is not JSON"));
      auto done = api.write_field(index_of(req), body, req.remote_addr);
      if (!done) return reply_error(res, done.error());
      reply_json(res, *done);
    });
    // The firmware actions (web/FirmwareApi) and the configuration (DeviceApi).
    const auto post_json = [this](const char* path, auto action) {
      server.Post(path, [this, action](const httplib::Request& req, httplib::Response& res) {
        const auto body = nlohmann::json::parse(req.body.empty() ? std::string("{}") : req.body, nullptr, false);
        if (body.is_discarded()) return reply_error(res, Error(ErrorCode::InvalidArgument, "the body is not JSON"));
        auto done = action(index_of(req), body, req.remote_addr);
        if (!done) return reply_error(res, done.error());
        reply_json(res, *done);
      });
    };
    post_json(R"(/api/devices/(\d{1,6})/burn)", [this](std::size_t i, const nlohmann::json& b, const std::string& peer) {
      return firmware.start_burn(i, b, peer);
    });
    post_json(R"(/api/devices/(\d{1,6})/identity)", [this](std::size_t i, const nlohmann::json& b, const std::string& peer) {
      return firmware.start_identity(i, b, peer);
    });
    post_json(R"(/api/devices/(\d{1,6})/reset)", [this](std::size_t i, const nlohmann::json&, const std::string& peer) {
      return firmware.reset(i, peer);
    });
    post_json(R"(/api/devices/(\d{1,6})/config)", [this](std::size_t i, const nlohmann::json& b, const std::string& peer) {
      return api.set_config(i, b, peer);
    });
    server.Post(R"(/api/devices/(\d{1,6})/image)", [this](const httplib::Request& req, httplib::Response& res) {
      const std::string name = req.has_param("name") ? req.get_param_value("name") : "uploaded image";
      auto done = firmware.upload(index_of(req), std::vector<std::uint8_t>(req.body.begin(), req.body.end()),
                                  name.substr(0, 200), req.remote_addr);
      if (!done) return reply_error(res, done.error());
      reply_json(res, *done);
    });
    server.Get(R"(/api/devices/(\d{1,6})/reset)", [this](const httplib::Request& req, httplib::Response& res) {
      auto doc = firmware.reset_plan(index_of(req));
      if (!doc) return reply_error(res, doc.error());
      reply_json(res, *doc);
    });
    server.Get(R"(/api/devices/(\d{1,6})/config)", [this](const httplib::Request& req, httplib::Response& res) {
      auto doc = api.config_document(index_of(req));
      if (!doc) return reply_error(res, doc.error());
      reply_json(res, *doc);
    });
    server.Get(R"(/api/devices/(\d{1,6})/trace)", [this](const httplib::Request& req, httplib::Response& res) {
      const auto after = cli::parse_number(req.has_param("after") ? req.get_param_value("after") : "0", "after");
      if (!after) return reply_error(res, after.error());
      auto doc = api.trace_document(index_of(req), *after);
      if (!doc) return reply_error(res, doc.error());
      reply_json(res, *doc);
    });
    server.Get(R"(/api/jobs/(job-\d{1,12}))", [this](const httplib::Request& req, httplib::Response& res) {
      auto doc = jobs.document(req.matches[1]);
      if (!doc) return reply_error(res, doc.error());
      reply_json(res, *doc);
    });
    // mst web --fabric: the Fabric page's documents (web/FabricApi; docs/json.md).
    const auto fabric_route = [this](const std::string& path, auto document) {
      server.Get(path, [this, document](const httplib::Request& req, httplib::Response& res) {
        if (!fabric) return reply_error(res, Error(ErrorCode::NotFound, "this console serves no fabric (mst web --fabric)"));
        auto doc = document(*fabric, req.has_param("refresh"));
        if (!doc) return reply_error(res, doc.error());
        reply_json(res, *doc);
      });
    };
    fabric_route("/api/fabric", [](FabricApi& f, bool refresh) { return f.fabric_document(refresh); });
    fabric_route("/api/fabric/firmware", [](FabricApi& f, bool refresh) { return f.firmware_document(refresh); });
    fabric_route("/api/fabric/health", [](FabricApi& f, bool) { return f.health_document(); });
    server.Post("/api/fabric/update", [this](const httplib::Request& req, httplib::Response& res) {
      if (!fabric) return reply_error(res, Error(ErrorCode::NotFound, "this console serves no fabric (mst web --fabric)"));
      const auto body = nlohmann::json::parse(req.body, nullptr, false);
      if (body.is_discarded()) return reply_error(res, Error(ErrorCode::InvalidArgument, "the body is not JSON"));
      auto done = fabric->start_update(body, req.remote_addr, jobs, options.read_only, options.audit);
      if (!done) return reply_error(res, done.error());
      reply_json(res, *done);
    });
    server.Get(R"(/.*)", [](const httplib::Request& req, httplib::Response& res) {
      const WebAsset* asset = find_web_asset(req.path);
      if (asset == nullptr) return reply_error(res, Error(ErrorCode::NotFound, "no page " + req.path));
      res.set_content(std::string(asset->body), std::string(asset->content_type).c_str());
    });
    server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
      if (!res.body.empty()) return;
      const std::string reason = res.status == 413 ? "the request is too large" : "the request was refused";
      res.set_content(cli::versioned(cli::error_json(Error(ErrorCode::InvalidArgument, reason))).dump(1), kJson);
    });
  }
};

WebServer::WebServer(std::unique_ptr<State> state) : state_(std::move(state)) {}
WebServer::~WebServer() {
  stop();
  if (state_ && state_->prefetch.joinable()) state_->prefetch.join();
  if (state_) state_->jobs.wait();  // a burn or a fabric update still running uses what State holds
}

Result<std::unique_ptr<WebServer>> WebServer::bind(WebOptions options) {
  if (!parse_peer_address(options.listen_address))
    return make_error(ErrorCode::InvalidArgument, "--listen: '" + options.listen_address + "' is not an IPv4 or IPv6 address");
  if (!loopback_listen(options.listen_address) && options.allow.empty())
    return make_error(ErrorCode::InvalidArgument,
                      "listening on " + options.listen_address + " (not loopback) needs --allow CIDR for the clients");
  if (options.token.empty()) {
    OF_ASSIGN(options.token, random_access_token());
  }
  auto state = std::make_unique<State>(std::move(options));
  State& s = *state;
  s.routes();
  const std::string& address = s.options.listen_address;
  if (address.find(':') != std::string::npos) s.server.set_address_family(AF_INET6);
  if (s.options.port == 0) {
    s.port = s.server.bind_to_any_port(address);
    if (s.port < 0) return make_error(ErrorCode::Io, "cannot listen on " + host_part(address) + ": no free port");
  } else {
    if (!s.server.bind_to_port(address, s.options.port))
      return make_error(ErrorCode::Io, "cannot listen on " + host_part(address) + ":" + std::to_string(s.options.port) +
                                           " (in use, or not an address of this host)");
    s.port = s.options.port;
  }
  if (loopback_listen(address)) {
    const std::string p = ":" + std::to_string(s.port);
    s.hosts = {host_part(address) + p, "localhost" + p};
  }
  s.prefetch = std::thread([&s] { (void)s.api.devices_document(); });
  return std::unique_ptr<WebServer>(new WebServer(std::move(state)));
}

int WebServer::port() const { return state_->port; }
const std::string& WebServer::token() const { return state_->options.token; }

std::string WebServer::url() const {
  return "http://" + host_part(state_->options.listen_address) + ":" + std::to_string(state_->port) +
         "/?token=" + state_->options.token;
}

Result<void> WebServer::serve() {
  if (!state_->server.listen_after_bind())
    return make_error(ErrorCode::Io, "the web server's listening socket failed");
  return {};
}

void WebServer::stop() {
  if (state_) state_->server.stop();
}

}  // namespace openflint
