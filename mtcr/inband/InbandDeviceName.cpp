// InbandDeviceName: parsing of in-band device names.
#include "mtcr/inband/InbandDeviceName.h"

#include "core/NumberText.h"

namespace openflint {

namespace {

Result<std::vector<std::uint8_t>> parse_path(std::string_view text) {
  std::vector<std::uint8_t> path;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = text.find('.', start);
    const std::string_view part = text.substr(start, dot == std::string_view::npos ? dot : dot - start);
    OF_ASSIGN(const std::uint64_t hop, parse_unsigned(part, 255, "directed-route hop"));
    path.push_back(static_cast<std::uint8_t>(hop));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (path.size() - 1 > 63) return make_error(ErrorCode::InvalidArgument, "directed route longer than 63 hops");
  return path;
}

}  // namespace

bool is_inband_device_name(std::string_view name) {
  return name.starts_with("lid-") || name.starts_with("iblid-") || name.starts_with("ibdr-");
}

Result<InbandDeviceName> parse_inband_device_name(std::string_view name) {
  InbandDeviceName dev;
  std::string_view rest;
  if (name.starts_with("lid-")) {
    dev.route = InbandDeviceName::Route::VendorGmp;
    rest = name.substr(4);
  } else if (name.starts_with("iblid-")) {
    dev.route = InbandDeviceName::Route::SmpLid;
    rest = name.substr(6);
  } else if (name.starts_with("ibdr-")) {
    dev.route = InbandDeviceName::Route::SmpDirected;
    rest = name.substr(5);
  } else {
    return make_error(ErrorCode::InvalidArgument,
                      "device '" + std::string(name) + "' is not an in-band name (lid-N, iblid-N, ibdr-a.b.c)");
  }
  const std::size_t comma = rest.find(',');
  const std::string_view target = rest.substr(0, comma);
  auto context = "device '" + std::string(name) + "'";
  if (dev.route == InbandDeviceName::Route::SmpDirected) {
    OF_ASSIGN_CTX(dev.path, parse_path(target), context);
  } else {
    OF_ASSIGN_CTX(const std::uint64_t lid, parse_unsigned(target, 0xbfff, "lid"), context);
    if (lid == 0) return make_error(ErrorCode::InvalidArgument, context + ": lid 0 is not a valid unicast lid");
    dev.lid = static_cast<std::uint16_t>(lid);
  }
  if (comma == std::string_view::npos) return dev;
  const std::string_view tail = rest.substr(comma + 1);
  const std::size_t comma2 = tail.find(',');
  dev.ca = std::string(tail.substr(0, comma2));
  if (dev.ca.empty()) return make_error(ErrorCode::InvalidArgument, context + ": empty ca name");
  if (comma2 != std::string_view::npos) {
    OF_ASSIGN_CTX(const std::uint64_t port, parse_unsigned(tail.substr(comma2 + 1), 254, "port"), context);
    dev.port = static_cast<int>(port);
  }
  return dev;
}

std::string InbandDeviceName::to_string() const {
  std::string s;
  switch (route) {
    case Route::VendorGmp: s = "lid-" + std::to_string(lid); break;
    case Route::SmpLid: s = "iblid-" + std::to_string(lid); break;
    case Route::SmpDirected:
      s = "ibdr-";
      for (std::size_t i = 0; i < path.size(); ++i) s += (i ? "." : "") + std::to_string(path[i]);
      break;
  }
  if (!ca.empty()) s += "," + ca;
  if (port != 0) s += "," + std::to_string(port);
  return s;
}

}  // namespace openflint
