// FirmwareTraceStrings: the messages openflint's simulated firmware traces, and the image section that carries their formats.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/ImageFormat.h"

namespace openflint {

// What the simulated firmware traces (sim/FirmwareTracer). The order is the order of the
// formats in a TRACE_STRINGS section: never reorder, only append.
enum class FirmwareTraceMessage : std::uint8_t {
  Boot,               // the boot ROM started a copy: FW version, copy address
  BootRecovery,       // no bootable copy: flash recovery mode
  RegisterRefused,    // an access register the firmware refused: id, method, status
  UpdateState,        // component update state machine: from, to, component
  UpdateError,        // component update failed: component, MCC error code, state
  FlashErase,         // the firmware erased its flash: address, size
  FlashProgram,       // the firmware programmed its flash: address, size
  ResetArmed,         // MFRL armed: levels
  ResetRun,           // the firmware reset runs: levels armed
  NvConfigStored,     // an NV configuration item written: type dword
  NvConfigReset,      // an NV configuration item back to its default: type dword
  NvConfigResetAll,   // every NV configuration item back to defaults
  TemperatureHigh,    // the ASIC crossed the warning threshold upwards: temperature, threshold
  TemperatureNormal,  // back below the low threshold: temperature, threshold
  SetItrace,          // ICMD SET_ITRACE: new mask, level, delay
  OwnerTaken,         // MTRC_CAP ownership granted
  OwnerReleased,      // MTRC_CAP ownership given up
  FlashEraseUnit,     // one erase unit of a firmware erase: address (DEBUG, one per unit)
};

// Message levels: SET_ITRACE log_level is a threshold, a message is logged when its level is at
// least the threshold (fw-trace-and-fwctl.md A4: 0 DEBUG, 1 INFO, 2 WARNING, 3 ERROR).
enum class TraceLevel : std::uint8_t { Debug = 0, Info = 1, Warning = 2, Error = 3 };

// One message kind as data. Its class is named twice, since the class sets differ by family
// (devices/catalog_tracer.cpp): `hca_class` is looked up in the family's classes first, then
// `switch_class` — adapters have the HCA names, switches only class1/class2 (everything class1,
// flash work and the component update class2: our mapping).
struct FirmwareTraceMessageInfo {
  FirmwareTraceMessage message = FirmwareTraceMessage::Boot;
  std::string_view format{};  // the driver's subset: %u %x %d only, no "%%"
  std::string_view hca_class{};
  std::string_view switch_class{};
  TraceLevel level = TraceLevel::Info;
};

[[nodiscard]] std::span<const FirmwareTraceMessageInfo> firmware_trace_messages();
[[nodiscard]] const FirmwareTraceMessageInfo& firmware_trace_message(FirmwareTraceMessage message);
// The formats in section order.
[[nodiscard]] std::vector<std::string_view> firmware_trace_formats();

// The TRACE_STRINGS section (section_type::kTraceStrings, openflint's own type): a 16-byte
// header — magic "OFTS" (0x4f465453), version (16 bits, 1), format count (16 bits), the bytes of
// the strings that follow (32 bits), a reserved zero dword, all big-endian — then the formats,
// each NUL-terminated, in FirmwareTraceMessage order, zero-padded to a dword multiple.
inline constexpr std::uint32_t kTraceStringsMagic = 0x4f465453;
inline constexpr std::size_t kTraceStringsHeader = 16;
inline constexpr std::size_t kMaxTraceStringsFormats = 1024;
inline constexpr std::size_t kMaxTraceStringsFormatLength = 1024;

// InvalidArgument for too many formats, a too long one, or one holding a NUL.
[[nodiscard]] Result<std::vector<std::uint8_t>> encode_trace_strings(std::span<const std::string_view> formats);
// The section for firmware_trace_formats().
[[nodiscard]] std::vector<std::uint8_t> firmware_trace_strings_section();
// Bounded: InvalidImage naming the problem (short header, bad magic or version, a count past
// kMaxTraceStringsFormats, a strings size past the section, a format without its NUL or longer
// than kMaxTraceStringsFormatLength). Never reads past `section`.
[[nodiscard]] Result<std::vector<std::string>> decode_trace_strings(Bytes section);

// The TRACE_STRINGS section of the FS3/FS4 image at `image_start` of `flash`: its bytes, or
// nullopt when the image has none (as real vendor images). InvalidImage when the ITOC cannot be
// found; FS1/FS2 images: nullopt.
[[nodiscard]] Result<std::optional<Bytes>> find_trace_strings_section(Bytes flash, ImageFormat format,
                                                                       std::uint64_t image_start);

}  // namespace openflint
