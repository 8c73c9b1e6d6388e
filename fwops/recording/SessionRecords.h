// SessionRecords: how each transport operation and its answer is written as one line of a session file.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "fwops/registers/RunningFirmware.h"
#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/RegisterAccess.h"

// A record is "REQUEST = ANSWER" or "REQUEST ! CODE TEXT" (docs/recording.md lists every
// REQUEST). The recording transport writes them, the replay transport compares the REQUEST it
// builds with the recorded one byte for byte and decodes the ANSWER.
namespace openflint::session_records {

// A number in hexadecimal, without "0x".
[[nodiscard]] std::string hex(std::uint64_t value);
// Hexadecimal words "1f 0 ffffffff" and bytes "00ff10" (empty: "-").
[[nodiscard]] std::string words(std::span<const std::uint32_t> values);
[[nodiscard]] Result<std::vector<std::uint32_t>> parse_words(std::string_view text);
[[nodiscard]] std::string bytes(std::span<const std::uint8_t> data);
[[nodiscard]] Result<std::vector<std::uint8_t>> parse_bytes(std::string_view text);
// "ADDR:VALUE ADDR:VALUE ..." for a write sequence.
[[nodiscard]] std::string writes(std::span<const RegisterWrite> sequence);
// An access-register TLV: "ID.METHOD.STATUS.TID.BYTES".
[[nodiscard]] std::string tlv(const AccessRegisterTlv& t);
[[nodiscard]] Result<AccessRegisterTlv> parse_tlv(std::string_view text);
// What a device says it runs: "none", or one line of JSON.
[[nodiscard]] std::string running(const std::optional<RunningFirmware>& firmware);
[[nodiscard]] Result<std::optional<RunningFirmware>> parse_running(std::string_view text);

// Texts in a record: '%', CR and LF escaped, so a name or message stays on its line.
[[nodiscard]] std::string escape(std::string_view text);
[[nodiscard]] std::string unescape(std::string_view text);
// A text that is one space-separated field of a record: escaped, and ' ' written %20.
[[nodiscard]] std::string field(std::string_view text);

// The record of `request` answered `answer` (without " = "), or of an error.
[[nodiscard]] std::string answered(std::string_view request, std::string_view answer);
[[nodiscard]] std::string failed(std::string_view request, const Error& error);
// The record of a call that answers nothing but success or an error.
template <typename T>
[[nodiscard]] std::string outcome(std::string_view request, const Result<T>& result) {
  return result ? answered(request, "") : failed(request, result.error());
}
// An answer as SessionPlayback::answer returns it: the text after "= ", or the recorded error.
[[nodiscard]] Result<std::string_view> decode(std::string_view answer);

}  // namespace openflint::session_records
