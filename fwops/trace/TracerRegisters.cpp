// TracerRegisters: MCAM and MTRC_CAP asked in the driver's order, the string DB read chunk by chunk.
#include "fwops/trace/TracerRegisters.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/HexString.h"
#include "mtcr/registers/McamRegister.h"
#include "mtcr/registers/MtrcStdbRegister.h"

namespace openflint {
namespace {

std::string tracer_status_text(std::uint8_t status) {
  switch (status) {
    case AccessRegisterTlv::kStatusRegisterNotSupported: return "register not supported";
    case AccessRegisterTlv::kStatusMethodNotSupported: return "method not supported";
    case AccessRegisterTlv::kStatusBadParameter: return "bad parameter";
    case AccessRegisterTlv::kStatusResourceNotAvailable: return "resource not available (busy)";
    default: return "status " + hex_string(status);
  }
}

// The MTRC_STDB requests of one section: the read plan's chunks, each cut to `max_chunk`.
std::vector<MtrcStdbRegister> tracer_section_requests(std::uint8_t index, std::uint32_t size, std::uint32_t max_chunk) {
  std::vector<MtrcStdbRegister> out;
  for (const TraceStringChunk& chunk : trace_string_read_plan(size)) {
    for (std::uint32_t done = 0; done < chunk.size; done += max_chunk)
      out.push_back(MtrcStdbRegister::request(index, chunk.offset + done, std::min(max_chunk, chunk.size - done)));
  }
  return out;
}

}  // namespace

std::array<std::uint8_t, kSetItraceBytes> set_itrace_payload(std::uint32_t unit_mask, std::uint8_t log_level) {
  std::array<std::uint8_t, kSetItraceBytes> out{};
  for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(unit_mask >> (24 - 8 * i));
  out[7] = log_level;  // dword 1 [7:0]; log_delay [31:16] stays 0
  return out;
}

Result<MtrcCapRegister> query_tracer_capabilities(RegisterPort& port) {
  McamRegister mcam_request;
  OF_ASSIGN(const AccessRegisterTlv mcam_answer, port.query(McamRegister::kId, mcam_request.encode()));
  if (mcam_answer.status == 0) {
    OF_ASSIGN(const McamRegister mcam, McamRegister::decode(mcam_answer.data));
    if (mcam.tracer_registers() == 0)
      return make_error(ErrorCode::NotSupported, "the running firmware has no tracer (MCAM lists none of MTRC_CAP..MTRC_CTRL)");
  }
  OF_ASSIGN(const AccessRegisterTlv answer, port.query(MtrcCapRegister::kId, std::vector<std::uint8_t>(MtrcCapRegister::kSize, 0)));
  if (answer.status == AccessRegisterTlv::kStatusRegisterNotSupported)
    return make_error(ErrorCode::NotSupported, "the running firmware has no tracer (MTRC_CAP: register not supported)");
  if (answer.status != 0) return make_error(ErrorCode::Io, "reading MTRC_CAP: " + tracer_status_text(answer.status));
  auto cap = MtrcCapRegister::decode(answer.data);
  if (!cap) return make_error(std::move(cap).error().with_context("reading MTRC_CAP"));
  return cap;
}

std::uint32_t max_trace_string_chunk(const RegisterPort& port) {
  const std::size_t bytes = port.max_register_bytes();
  if (bytes < MtrcStdbRegister::kHeaderSize + MtrcStdbRegister::kAlignment) return 0;
  const std::size_t data = std::min<std::size_t>(bytes - MtrcStdbRegister::kHeaderSize, kTraceStringChunk);
  return static_cast<std::uint32_t>(data / MtrcStdbRegister::kAlignment * MtrcStdbRegister::kAlignment);
}

Result<TraceStringDb> read_trace_string_db(RegisterPort& port, const MtrcCapRegister& capabilities) {
  std::vector<TraceStringSection> sections;
  for (const MtrcStringDbParam& p : capabilities.string_dbs()) sections.push_back({.base_address = p.base_address, .size = p.size});
  OF_ASSIGN(TraceStringDb db, TraceStringDb::create(sections));
  const std::uint32_t max_chunk = max_trace_string_chunk(port);
  if (max_chunk == 0 && !sections.empty())
    return make_error(ErrorCode::NotSupported, "the register channel carries " + std::to_string(port.max_register_bytes()) +
                                                   " bytes, too few for one 64-byte MTRC_STDB chunk");
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const auto index = static_cast<std::uint8_t>(i);
    const std::vector<MtrcStdbRegister> chunks = tracer_section_requests(index, sections[i].size, max_chunk);
    if (chunks.empty()) continue;
    std::vector<AccessRegisterTlv> requests;
    requests.reserve(chunks.size());
    for (const MtrcStdbRegister& c : chunks) requests.push_back(AccessRegisterTlv::request(MtrcStdbRegister::kId, AccessRegisterTlv::kMethodQuery, c.encode()));
    OF_ASSIGN(const std::vector<AccessRegisterTlv> answers, port.transact_all(requests));
    if (answers.size() != requests.size()) return make_error(ErrorCode::Io, "MTRC_STDB: fewer answers than requests");
    for (std::size_t k = 0; k < chunks.size(); ++k) {
      const std::string where = "reading string DB section " + std::to_string(i) + " at offset " + hex_string(chunks[k].start_offset) +
                                " (" + std::to_string(chunks[k].read_size) + " bytes) through MTRC_STDB";
      if (answers[k].status != 0) return make_error(ErrorCode::Io, where + ": " + tracer_status_text(answers[k].status));
      // The data follow the 8-byte header; the header's echo of the index fields is not relied on
      // (the driver does not look at it either).
      const std::vector<std::uint8_t>& reply = answers[k].data;
      if (reply.size() < MtrcStdbRegister::kHeaderSize + chunks[k].read_size)
        return make_error(ErrorCode::Io, where + ": the answer holds " + std::to_string(reply.size()) + " bytes");
      OF_TRY_CTX(db.store(i, chunks[k].start_offset,
                            std::span(reply).subspan(MtrcStdbRegister::kHeaderSize, chunks[k].read_size)),
                 where);
    }
  }
  return db;
}

}  // namespace openflint
