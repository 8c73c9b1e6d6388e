// UmadPort: RAII owner of a libibumad port (the library loaded lazily, UmadLibrary), its registered agents and (optionally) its issm handle.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/Result.h"
#include "mtcr/inband/MadFormat.h"

namespace openflint {

// One MAD taken off the port, with the address it came from.
struct ReceivedMad {
  std::array<std::uint8_t, mad::kMadSize> mad{};
  int umad_status = 0;     // non-zero: a send error or a bounce (e.g. 110 = nobody answered)
  int agent = -1;          // the agent it was delivered to
  std::uint16_t slid = 0;  // source LID (host order)
  std::uint32_t sqpn = 0;  // source QP (host order)
};

struct UmadFunctions;

class UmadPort {
 public:
  // Opens `ca` (empty: the first CA) port `port` (0: the first active port). Without
  // libibumad on the host: NotSupported (UmadLibrary).
  [[nodiscard]] static Result<UmadPort> open(const std::string& ca, int port);

  UmadPort(UmadPort&& other) noexcept;
  UmadPort& operator=(UmadPort&& other) noexcept;
  UmadPort(const UmadPort&) = delete;
  UmadPort& operator=(const UmadPort&) = delete;
  ~UmadPort();

  // Registers an agent for a class; with `serve` it also receives GET/SET requests of that class.
  [[nodiscard]] Result<int> register_class(std::uint8_t mgmt_class, bool serve);
  // Agent id registered for a class, or -1.
  [[nodiscard]] int agent_for(std::uint8_t mgmt_class) const;
  // Becomes the port's SM client (opens the issm device); held until destruction.
  [[nodiscard]] Result<void> become_sm();

  // Reentrant: threads may send at once (each from a buffer on its stack), and overlap a recv.
  [[nodiscard]] Result<void> send(int agent, std::span<const std::uint8_t, mad::kMadSize> mad,
                                  std::uint16_t dlid, std::uint32_t dqp, std::uint32_t qkey);
  // Waits up to timeout_ms; nullopt when nothing arrived in time.
  [[nodiscard]] Result<std::optional<ReceivedMad>> recv(int timeout_ms);

 private:
  // A send's buffer: the umad header (struct ib_user_mad, 64 bytes; umad_size()) and the MAD.
  static constexpr std::size_t kSendBufferBytes = 512;
  UmadPort(const UmadFunctions* umad, int fd, std::string ca, int port)
      : umad_(umad), fd_(fd), ca_(std::move(ca)), port_(port) {}
  void reset();
  const UmadFunctions* umad_ = nullptr;  // libibumad, loaded on the first open (UmadLibrary)
  int fd_ = -1;
  std::string ca_;
  int port_ = 0;
  int issm_fd_ = -1;
  std::array<int, 256> agents_{};  // by class; -1 = none
  std::vector<std::uint8_t> buffer_;  // receive buffer (one receiver at a time: MadChannel)
};

}  // namespace openflint
