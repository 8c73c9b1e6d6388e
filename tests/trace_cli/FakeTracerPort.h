// FakeTracerPort: a register port with a firmware tracer as the PRM describes it (MCAM bits, MTRC_CAP with
// ownership, MTRC_STDB chunks), recording every access, so the library is proven without the simulator.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "image/TraceStringDbBuilder.h"
#include "mtcr/RegisterPort.h"
#include "mtcr/registers/McamRegister.h"
#include "mtcr/registers/MtrcCapRegister.h"
#include "mtcr/registers/MtrcStdbRegister.h"

namespace openflint::test {

class FakeTracerPort final : public RegisterPort {
 public:
  FakeTracerPort(BuiltTraceStrings strings, std::size_t max_bytes) : strings_(std::move(strings)), max_bytes_(max_bytes) {}

  bool mcam_answers = true;         // false: MCAM register not supported (old firmware)
  bool mcam_lists_tracer = true;    // MCAM group 0 bits 0x40-0x43
  bool has_tracer = true;           // false: MTRC_* register not supported
  bool owned_by_other = false;      // ownership requests are refused
  bool owned_by_us = false;         // state of a granted request
  std::uint8_t stdb_status = 0;     // non-zero: every MTRC_STDB answers this status
  std::vector<std::string> log;     // "cap w 1", "stdb 0 0x100 256", ...

  Result<AccessRegisterTlv> transact(const AccessRegisterTlv& request) override {
    count_access();
    if (request.data.size() > max_bytes_) return make_error(ErrorCode::InvalidArgument, "register too large for the port");
    AccessRegisterTlv answer = request;
    if (request.register_id == McamRegister::kId) {
      log.push_back("mcam");
      if (!mcam_answers) return status(answer, AccessRegisterTlv::kStatusRegisterNotSupported);
      McamRegister mcam;
      if (mcam_lists_tracer)
        for (std::uint16_t id = 0x9040; id <= 0x9043; ++id) mcam.set_listed(id);
      answer.data = mcam.encode();
      return answer;
    }
    if (request.register_id == MtrcCapRegister::kId) {
      if (!has_tracer) return status(answer, AccessRegisterTlv::kStatusRegisterNotSupported);
      MtrcCapRegister cap = capabilities();
      if (request.method == AccessRegisterTlv::kMethodWrite) {
        auto asked = MtrcCapRegister::decode(request.data);
        if (!asked) return status(answer, AccessRegisterTlv::kStatusBadParameter);
        log.push_back(std::string("cap w ") + (asked->trace_owner ? "1" : "0"));
        if (asked->trace_owner && !owned_by_other) owned_by_us = true;
        if (!asked->trace_owner) owned_by_us = false;
        cap.trace_owner = asked->trace_owner && owned_by_us;
      } else {
        log.push_back("cap q");
      }
      answer.data = cap.encode();
      return answer;
    }
    if (request.register_id == MtrcStdbRegister::kId) {
      auto asked = MtrcStdbRegister::decode(request.data);
      if (!asked) return status(answer, AccessRegisterTlv::kStatusBadParameter);
      log.push_back("stdb " + std::to_string(asked->string_db_index) + " " + std::to_string(asked->start_offset) + " " +
                    std::to_string(asked->read_size));
      if (stdb_status != 0) return status(answer, stdb_status);
      if (asked->string_db_index >= strings_.sections.size()) return status(answer, AccessRegisterTlv::kStatusBadParameter);
      const auto max_read = static_cast<std::uint32_t>(max_bytes_ - MtrcStdbRegister::kHeaderSize);
      if (!asked->check_request(strings_.sections[asked->string_db_index].size, max_read))
        return status(answer, AccessRegisterTlv::kStatusBadParameter);
      const auto& section = strings_.section_bytes[asked->string_db_index];
      asked->data.assign(section.begin() + asked->start_offset, section.begin() + asked->start_offset + asked->read_size);
      answer.data = asked->encode();
      return answer;
    }
    return status(answer, AccessRegisterTlv::kStatusRegisterNotSupported);
  }
  std::size_t max_register_bytes() const override { return max_bytes_; }

  MtrcCapRegister capabilities() const {
    MtrcCapRegister cap;
    cap.trace_to_memory = true;
    cap.num_string_db = static_cast<std::uint8_t>(strings_.sections.size());
    cap.first_string_trace = 0x2c;
    cap.num_string_trace = 4;
    for (std::size_t i = 0; i < strings_.sections.size(); ++i)
      cap.string_db_param[i] = {strings_.sections[i].base_address, strings_.sections[i].size};
    return cap;
  }

 private:
  static Result<AccessRegisterTlv> status(AccessRegisterTlv answer, std::uint8_t s) {
    answer.status = s;
    return answer;
  }

  BuiltTraceStrings strings_;
  std::size_t max_bytes_;
};

}  // namespace openflint::test
