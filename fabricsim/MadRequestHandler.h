// MadRequestHandler: turns one received request MAD into its response, in place (no port, no fabric).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>

#include "fabricsim/CrSpaceBackend.h"
#include "fabricsim/ResponderHooks.h"

namespace openflint {

// The request a response was made for (for tracing and routing the answer).
struct AnsweredRequest {
  std::uint8_t mgmt_class = 0;
  std::uint8_t method = 0;
  std::uint16_t attr = 0;
  std::uint32_t attr_mod = 0;
  std::uint16_t status = 0;  // MAD status of the response (without the D bit)
};

// The request parser and dispatcher of MadResponder, over bytes only: whoever sends us MADs may
// send anything, so every count and address in a request is checked against the MAD's own
// payload before use, and a bad one gets MAD status 0x1c, never a read past the buffer.
class MadRequestHandler {
 public:
  // `backend` (and what the hooks capture) must outlive the handler.
  MadRequestHandler(CrSpaceBackend& backend, ResponderHooks hooks) : backend_(&backend), hooks_(std::move(hooks)) {}

  // Serves the request in `mad` and rewrites it into the response (response bit, status, D bit
  // and hop pointer of directed-route SMPs). nullopt: no answer is due — a response, a trap or
  // another method, or fewer than 256 bytes.
  [[nodiscard]] std::optional<AnsweredRequest> handle(std::span<std::uint8_t> mad);

 private:
  [[nodiscard]] std::uint16_t dispatch(std::uint8_t mgmt_class, std::uint8_t method, std::uint16_t attr,
                                       std::uint32_t attr_mod, std::span<std::uint8_t> payload);
  [[nodiscard]] std::uint16_t cr_access(std::uint8_t method, std::uint32_t attr_mod, std::span<std::uint8_t> payload);
  [[nodiscard]] std::uint16_t cr_mode0(std::uint8_t method, std::uint32_t attr_mod, std::span<std::uint8_t> data);
  [[nodiscard]] std::uint16_t cr_mode2(std::uint8_t method, std::uint32_t attr_mod, std::span<std::uint8_t> data);
  [[nodiscard]] std::uint16_t call_register_hook(std::uint16_t attr, std::uint8_t method, std::uint32_t attr_mod,
                                                 std::span<std::uint8_t> payload);

  CrSpaceBackend* backend_;
  ResponderHooks hooks_;
};

}  // namespace openflint
