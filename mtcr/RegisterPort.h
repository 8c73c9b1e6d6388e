// RegisterPort: access registers of a device's running firmware (MGIR, MCC, MFBA, ...) on whichever channel its transport has.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"
#include "mtcr/registers/AccessRegisterTlv.h"

namespace openflint {

// PCI: the ICMD mailbox (mtcr/pci/IcmdRegisterPort.h), or the tools HCR in CR-space on pre-ICMD parts
// (mtcr/ToolsHcrRegisterPort.h). In-band: the vendor GMP register access, or
// the 44-byte SMP one on a directed route (mtcr/inband/InbandRegisterPort.h). Simulated devices: their
// firmware directly (sim/SimRegisterPort.h). Callers size what they move per access from
// max_register_bytes(), never from a constant.
class RegisterPort {
 public:
  virtual ~RegisterPort() = default;

  // One access. The answer's register status stays in the TLV (the caller acts on "busy" or
  // "bad parameter"); an error means the channel failed (Io, Timeout).
  [[nodiscard]] virtual Result<AccessRegisterTlv> transact(const AccessRegisterTlv& request) = 0;
  // Several accesses in order, the answers in the same order (a firmware download's MCDA
  // chunks). The default sends them one by one; a port whose every access is a network round
  // trip (mtcr/remote/RemoteRegisterPort.h) pipelines them. Every request is sent even when an earlier
  // answer carries a non-zero register status: the caller checks the statuses in order.
  [[nodiscard]] virtual Result<std::vector<AccessRegisterTlv>> transact_all(std::span<const AccessRegisterTlv> requests) {
    std::vector<AccessRegisterTlv> answers;
    answers.reserve(requests.size());
    for (const AccessRegisterTlv& request : requests) {
      OF_ASSIGN(AccessRegisterTlv answer, transact(request));
      answers.push_back(std::move(answer));
    }
    return answers;
  }
  // One access of register `id` by `method` with the register's bytes, and its two usual forms:
  // the answer keeps the register status for the caller to act on.
  [[nodiscard]] Result<AccessRegisterTlv> access(std::uint16_t id, std::uint8_t method, std::vector<std::uint8_t> bytes) {
    return transact(AccessRegisterTlv::request(id, method, std::move(bytes)));
  }
  [[nodiscard]] Result<AccessRegisterTlv> query(std::uint16_t id, std::vector<std::uint8_t> bytes) {
    return access(id, AccessRegisterTlv::kMethodQuery, std::move(bytes));
  }
  [[nodiscard]] Result<AccessRegisterTlv> write(std::uint16_t id, std::vector<std::uint8_t> bytes) {
    return access(id, AccessRegisterTlv::kMethodWrite, std::move(bytes));
  }

  // The largest register (bytes after the TLV headers) one access carries both ways.
  [[nodiscard]] virtual std::size_t max_register_bytes() const = 0;
  // Accesses sent so far (each a round trip).
  [[nodiscard]] std::uint64_t accesses() const { return accesses_; }

 protected:
  RegisterPort() = default;
  void count_access() { ++accesses_; }

 private:
  std::uint64_t accesses_ = 0;
};

}  // namespace openflint
