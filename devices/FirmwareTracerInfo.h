// FirmwareTracerInfo: a device family's firmware tracer facts as data — its trace-mask classes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

// A class of firmware trace messages: bit `bit` of the trace mask (ICMD SET_ITRACE 0xF003
// unit_mask, fw-trace-and-fwctl.md A4), named as mstfwtrace lists it.
struct TraceClass {
  std::string_view name{};
  std::uint8_t bit = 0;
};

struct FirmwareTracerInfo {
  std::span<const TraceClass> classes{};
  // MTRC_CAP.trace_to_memory: the tracer logs into a host buffer the driver gives it (the mode
  // the Linux mlx5 driver and mstfwtrace use). Switches: FIFO mode only (trace_mkey and
  // arm_event are "reserved for switches" in the PRM; [inferred], fw-trace-and-fwctl.md A5),
  // and how a FIFO is read is not public.
  bool host_memory_mode = false;
  // The Linux driver that takes a host-memory tracer and prints its messages (the mlx5:mlx5_fw
  // tracepoint); empty where no driver reads the tracer.
  std::string_view driver{};
};

// Connect-IB, ConnectX-4 and later, BlueField: bits 0-30 (mstfwtrace's HCA table).
extern const FirmwareTracerInfo kHcaFirmwareTracer;
// Switch-IB, Switch-IB 2, Quantum, Spectrum and later: class1 (bit 0), class2 (bit 1).
extern const FirmwareTracerInfo kSwitchFirmwareTracer;

// A mask as mstfwtrace -m takes it: a number (decimal or 0x hex, 32 bits) or class names joined
// by '+' ("FLASH+CMD_IF"), matched case-insensitively. InvalidArgument naming an unknown class
// (and the known ones) or an empty part.
[[nodiscard]] Result<std::uint32_t> parse_trace_mask(const FirmwareTracerInfo& tracer, std::string_view text);
// The names of the classes set in `mask`, joined by '+', bits without a class as hex
// ("FLASH+0x80000000"); "0x0" for an empty mask.
[[nodiscard]] std::string trace_mask_text(const FirmwareTracerInfo& tracer, std::uint32_t mask);

}  // namespace openflint
