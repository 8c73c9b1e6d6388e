// AccessRegisterTlv: the operation-TLV + register-TLV payload of an in-band AccessRegister MAD.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/Result.h"

namespace openflint {

// Layout (all big-endian): operation TLV of 4 dwords — type 1 [31:27], length 4 [26:16],
// status [14:8]; register id [31:16] of dword 1, method [14:8] (1 query, 2 write), class 1
// [7:0]; a 64-bit transaction id — then the register TLV: type 3 [31:27], length in dwords
// including its header [26:16], followed by the register bytes.
struct AccessRegisterTlv {
  static constexpr std::uint8_t kMethodQuery = 1;
  static constexpr std::uint8_t kMethodWrite = 2;
  // Answer statuses (the operation TLV's [14:8]) the tools act on.
  static constexpr std::uint8_t kStatusRegisterNotSupported = 4;
  static constexpr std::uint8_t kStatusMethodNotSupported = 6;
  static constexpr std::uint8_t kStatusBadParameter = 7;
  static constexpr std::uint8_t kStatusResourceNotAvailable = 8;  // busy: the tool retries
  static constexpr std::uint8_t kStatusInternalError = 0x70;
  static constexpr std::size_t kHeaderBytes = 20;  // operation TLV (16) + register TLV header (4)

  std::uint16_t register_id = 0;
  std::uint8_t method = kMethodQuery;
  std::uint8_t status = 0;  // device's answer: 0 ok, else a register-access status
  std::uint64_t tid = 0;
  std::vector<std::uint8_t> data;  // register bytes (a multiple of 4)

  // A request: register `id` by `method`, with the register's bytes (its index fields set).
  [[nodiscard]] static AccessRegisterTlv request(std::uint16_t id, std::uint8_t method, std::vector<std::uint8_t> bytes) {
    AccessRegisterTlv t;
    t.register_id = id;
    t.method = method;
    t.data = std::move(bytes);
    return t;
  }

  // The payload; InvalidArgument when it does not fit `capacity` bytes.
  [[nodiscard]] Result<std::vector<std::uint8_t>> encode(std::size_t capacity) const;
  // Parses a payload (request or answer); InvalidImage naming the bad field when malformed.
  [[nodiscard]] static Result<AccessRegisterTlv> decode(std::span<const std::uint8_t> payload);
};

}  // namespace openflint
