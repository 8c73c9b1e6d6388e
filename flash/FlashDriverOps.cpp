// FlashDriverOps: the byte-level operations of FlashDriver (read, erase, program, verify) over its bus, page by page.
#include <algorithm>
#include <array>
#include <string>

#include "core/HexString.h"
#include "core/Interrupt.h"
#include "flash/FlashDriver.h"

namespace openflint {
namespace {

constexpr std::uint32_t kProgramPageSize = 256;

}  // namespace

Result<void> FlashDriver::read_into(std::uint64_t address, std::span<std::uint8_t> out,
                                    const FlashProgress& progress) {
  OF_TRY(check_range(address, out.size()));
  std::size_t done = 0;
  while (done < out.size()) {
    OF_TRY(check_interrupted());  // a safe point between page reads
    const auto here = static_cast<std::uint32_t>(address + done);
    const std::size_t n = std::min<std::size_t>(out.size() - done, kProgramPageSize - (here % kProgramPageSize));
    OF_TRY_CTX(bus_->read(here, out.subspan(done, n)), "reading flash at " + hex_string(here));
    done += n;
    if (progress) progress(done, out.size());
  }
  return {};
}

Result<std::vector<std::uint8_t>> FlashDriver::read(std::uint64_t address, std::uint64_t length,
                                                    const FlashProgress& progress) {
  OF_TRY(check_range(address, length));
  std::vector<std::uint8_t> out(static_cast<std::size_t>(length));
  OF_TRY(read_into(address, out, progress));
  return out;
}

Result<void> FlashDriver::erase_sector(std::uint64_t address) {
  const std::uint32_t size = sector_size();
  OF_TRY(check_range(address, size));
  if (address % size != 0) {
    return make_error(ErrorCode::InvalidArgument,
                      "erase address " + hex_string(address) + " is not aligned to " + hex_string(size));
  }
  return bus_->erase(static_cast<std::uint32_t>(address));
}

Result<void> FlashDriver::program(std::uint64_t address, std::span<const std::uint8_t> bytes) {
  OF_TRY(check_range(address, bytes.size()));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto here = static_cast<std::uint32_t>(address + done);
    const std::size_t n = std::min<std::size_t>(bytes.size() - done, kProgramPageSize - (here % kProgramPageSize));
    OF_TRY(bus_->program(here, bytes.subspan(done, n)));
    done += n;
  }
  return {};
}

Result<void> FlashDriver::verify(std::uint32_t address, std::span<const std::uint8_t> expected) {
  std::vector<std::uint8_t> actual(expected.size());
  OF_TRY(read_into(address, actual));
  auto diff = std::mismatch(expected.begin(), expected.end(), actual.begin());
  if (diff.first == expected.end()) return {};
  const auto at = address + static_cast<std::uint32_t>(diff.first - expected.begin());
  return make_error(ErrorCode::Mismatch, "verify after write failed at " + hex_string(at) + ": wrote " +
                                             hex_string(*diff.first) + ", flash holds " +
                                             hex_string(*diff.second));
}

}  // namespace openflint
