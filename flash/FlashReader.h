// FlashReader: what query, verify and read-image need of a flash — its chip and reads — whoever does the reading.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "core/Result.h"
#include "devices/FlashChip.h"

namespace openflint {

// Progress of a long operation: bytes done out of total.
using FlashProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

// The tool through the CR-space gateway (flash/FlashDriver.h), or the device's running firmware
// (flash/FirmwareFlashReader.h).
class FlashReader {
 public:
  virtual ~FlashReader() = default;

  [[nodiscard]] virtual const FlashChip& chip() const = 0;
  [[nodiscard]] virtual std::uint32_t jedec_id() const = 0;
  [[nodiscard]] std::uint64_t size() const { return chip().size; }
  [[nodiscard]] std::uint32_t sector_size() const { return chip().min_erase_size(); }
  [[nodiscard]] virtual Result<void> read_into(std::uint64_t address, std::span<std::uint8_t> out,
                                               const FlashProgress& progress) = 0;
  [[nodiscard]] Result<void> read_into(std::uint64_t address, std::span<std::uint8_t> out) {
    return read_into(address, out, FlashProgress{});
  }
  // True when reading costs a round trip per small block (MADs, config space, the firmware's
  // registers): callers then read only what they need, never the whole flash.
  [[nodiscard]] virtual bool costly_reads() const = 0;

 protected:
  FlashReader() = default;
  FlashReader(const FlashReader&) = default;
  FlashReader& operator=(const FlashReader&) = default;
  FlashReader(FlashReader&&) = default;
  FlashReader& operator=(FlashReader&&) = default;
};

}  // namespace openflint
