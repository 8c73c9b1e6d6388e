// TracerRegisters: the firmware tracer's access registers over any register port — capabilities, string DB, SET_ITRACE payload.
#pragma once

#include <array>
#include <cstdint>

#include "core/Result.h"
#include "image/TraceStringDb.h"
#include "mtcr/RegisterPort.h"
#include "mtcr/registers/MtrcCapRegister.h"

namespace openflint {

// ICMD SET_ITRACE (fw-trace-and-fwctl.md A4): an ICMD command, not an access register. Its
// 16-byte payload: dword 0 unit_mask (bit n = class n), dword 1 [7:0] log_level (a threshold:
// 0 DEBUG, 1 INFO, 2 WARNING, 3 ERROR), dword 1 [31:16] log_delay in microseconds (0, as
// mstfwtrace sends), the rest zero. The firmware has no command that reads the mask back.
inline constexpr std::uint16_t kIcmdSetItrace = 0xf003;
inline constexpr std::size_t kSetItraceBytes = 16;
inline constexpr std::uint8_t kMaxTraceLevel = 3;
[[nodiscard]] std::array<std::uint8_t, kSetItraceBytes> set_itrace_payload(std::uint32_t unit_mask, std::uint8_t log_level);

// The tracer's capabilities: MCAM first (group 0's tracer_registers, the bits the Linux driver
// checks before it creates a tracer: none set → NotSupported), then MTRC_CAP (register not
// supported → NotSupported). A firmware without MCAM is asked MTRC_CAP directly. Other register
// statuses are Io naming them.
[[nodiscard]] Result<MtrcCapRegister> query_tracer_capabilities(RegisterPort& port);

// The largest MTRC_STDB read_size one access of `port` carries: its register bytes less the
// register's 8-byte header, down to a multiple of 64 (the register's alignment). 0 when even 64
// bytes do not fit.
[[nodiscard]] std::uint32_t max_trace_string_chunk(const RegisterPort& port);

// The whole string DB the capabilities describe, read through MTRC_STDB section by section by
// trace_string_read_plan (the driver's 256- then 64-byte chunks), a chunk larger than the port
// carries split into 64-aligned pieces. Each section's chunks go out together
// (RegisterPort::transact_all: one pipelined burst over a bus server). NotSupported when the
// port cannot carry 64 bytes; Io naming the section and offset when the firmware refuses a chunk
// or answers another one.
[[nodiscard]] Result<TraceStringDb> read_trace_string_db(RegisterPort& port, const MtrcCapRegister& capabilities);

}  // namespace openflint
