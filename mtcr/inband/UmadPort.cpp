// UmadPort: libibumad port ownership and raw MAD send/receive.
#include "mtcr/inband/UmadPort.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstring>

#include "core/StderrSilenced.h"
#include "mtcr/inband/UmadLibrary.h"

namespace openflint {

namespace {
constexpr std::uint8_t kClassVersion = 1;
}  // namespace

Result<UmadPort> UmadPort::open(const std::string& ca, int port) {
  OF_ASSIGN(const UmadFunctions* umad, UmadLibrary::functions());
  const StderrSilenced quiet;  // libibumad may print its own line about the port; ours follows
  if (umad->init() < 0) return make_error(ErrorCode::Io, "umad: cannot initialise libibumad");
  const char* ca_name = ca.empty() ? nullptr : ca.c_str();
  const int fd = umad->open_port(ca_name, port);
  if (fd < 0) {
    return make_error(fd == -EACCES || fd == -EPERM ? ErrorCode::PermissionDenied : ErrorCode::NotFound,
                      "umad: cannot open port " + (ca.empty() ? std::string("(default ca)") : ca) + ":" +
                          std::to_string(port) + ": " + errno_text(fd));
  }
  UmadPort p(umad, fd, ca, port);
  p.agents_.fill(-1);
  if (umad->size() + mad::kMadSize > kSendBufferBytes)
    return make_error(ErrorCode::NotSupported, "umad: libibumad's header of " + std::to_string(umad->size()) +
                                                   " bytes is larger than expected");
  p.buffer_.resize(umad->size() + mad::kMadSize);
  return p;
}

UmadPort::UmadPort(UmadPort&& other) noexcept
    : umad_(other.umad_), fd_(other.fd_), ca_(std::move(other.ca_)), port_(other.port_), issm_fd_(other.issm_fd_), agents_(other.agents_), buffer_(std::move(other.buffer_)) {
  other.fd_ = -1;
  other.issm_fd_ = -1;
  other.agents_.fill(-1);
}

UmadPort& UmadPort::operator=(UmadPort&& other) noexcept {
  if (this != &other) {
    reset();
    umad_ = other.umad_;
    fd_ = other.fd_;
    ca_ = std::move(other.ca_);
    port_ = other.port_;
    issm_fd_ = other.issm_fd_;
    agents_ = other.agents_;
    buffer_ = std::move(other.buffer_);
    other.fd_ = -1;
    other.issm_fd_ = -1;
    other.agents_.fill(-1);
  }
  return *this;
}

UmadPort::~UmadPort() { reset(); }

void UmadPort::reset() {
  if (fd_ >= 0) {
    for (int& agent : agents_) {
      if (agent >= 0) (void)umad_->unregister_agent(fd_, agent);
      agent = -1;
    }
    (void)umad_->close_port(fd_);
    fd_ = -1;
  }
  if (issm_fd_ >= 0) {
    ::close(issm_fd_);
    issm_fd_ = -1;
  }
}

Result<int> UmadPort::register_class(std::uint8_t mgmt_class, bool serve) {
  if (agents_[mgmt_class] >= 0) return agents_[mgmt_class];
  long mask[16 / sizeof(long)] = {};
  if (serve) mask[0] = (1L << mad::kMethodGet) | (1L << mad::kMethodSet);
  const int agent = umad_->register_agent(fd_, mgmt_class, kClassVersion, 0, serve ? mask : nullptr);
  if (agent < 0)
    return make_error(ErrorCode::Io, "umad: cannot register class " + std::to_string(mgmt_class) + ": " +
                                         errno_text(agent));
  agents_[mgmt_class] = agent;
  return agent;
}

int UmadPort::agent_for(std::uint8_t mgmt_class) const { return agents_[mgmt_class]; }

Result<void> UmadPort::become_sm() {
  if (issm_fd_ >= 0) return {};
  char path[256] = {};
  if (umad_->get_issm_path(ca_.empty() ? nullptr : ca_.c_str(), port_, path, sizeof path) < 0)
    return make_error(ErrorCode::NotFound, "umad: no issm device for the port");
  issm_fd_ = ::open(path, O_RDWR | O_CLOEXEC);
  if (issm_fd_ < 0) return make_error(ErrorCode::Io, std::string("umad: cannot open ") + path + ": " + errno_text(errno));
  return {};
}

Result<void> UmadPort::send(int agent, std::span<const std::uint8_t, mad::kMadSize> mad, std::uint16_t dlid,
                            std::uint32_t dqp, std::uint32_t qkey) {
  // A buffer on the stack: threads send at once without a lock (the kernel's umad write takes
  // them concurrently), and a send allocates nothing (it ran once per MAD). set_addr rewrites
  // the whole address block; the header's other fields start zeroed.
  alignas(std::max_align_t) std::array<std::uint8_t, kSendBufferBytes> buffer{};
  std::uint8_t* out = buffer.data();
  std::memcpy(umad_->get_mad(out), mad.data(), mad.size());
  umad_->set_addr(out, dlid, static_cast<int>(dqp), 0, static_cast<int>(qkey));
  const int rc = umad_->send(fd_, agent, out, static_cast<int>(mad::kMadSize), 0, 0);
  if (rc < 0) return make_error(ErrorCode::Io, "umad: send failed: " + errno_text(rc));
  return {};
}

Result<std::optional<ReceivedMad>> UmadPort::recv(int timeout_ms) {
  int length = static_cast<int>(mad::kMadSize);
  const int rc = umad_->recv(fd_, buffer_.data(), &length, timeout_ms);
  if (rc == -ETIMEDOUT || rc == -EAGAIN || rc == -EINTR) return std::optional<ReceivedMad>{};
  if (rc < 0) return make_error(ErrorCode::Io, "umad: receive failed: " + errno_text(rc));
  ReceivedMad in;
  in.agent = rc;
  in.umad_status = umad_->status(buffer_.data());
  const ib_mad_addr_t* addr = umad_->get_mad_addr(buffer_.data());
  in.slid = ntohs(addr->lid);
  in.sqpn = ntohl(addr->qpn);
  const std::size_t n = length > 0 && static_cast<std::size_t>(length) < mad::kMadSize
                            ? static_cast<std::size_t>(length) : mad::kMadSize;
  std::memcpy(in.mad.data(), umad_->get_mad(buffer_.data()), n);
  return std::optional<ReceivedMad>(in);
}

}  // namespace openflint
