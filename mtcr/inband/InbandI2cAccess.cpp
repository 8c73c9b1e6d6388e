// InbandI2cAccess: ExtPortAccess I2C requests built and their answers checked.
#include "mtcr/inband/InbandI2cAccess.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "mtcr/inband/MadFormat.h"

namespace openflint {
namespace {

// Offsets into the data after the VS_Key (MadFormat's are into the whole vendor data area).
constexpr std::size_t kSizeAt = mad::kI2cOffSize - mad::kCrKeySize;
constexpr std::size_t kDeviceAt = mad::kI2cOffDevice - mad::kCrKeySize;
constexpr std::size_t kMemoryAt = mad::kI2cOffMemory - mad::kCrKeySize;
constexpr std::size_t kDataAt = mad::kI2cOffData - mad::kCrKeySize;

std::string where(std::uint8_t device, std::uint32_t offset, std::size_t size) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "i2c device 0x%02x offset 0x%x (%zu bytes)", device, offset, size);
  return buf;
}

}  // namespace

InbandI2cAccess::InbandI2cAccess(InbandAccess& inband)
    : exchange_([&inband](std::uint8_t method, std::uint32_t attr_mod, std::span<const std::uint8_t> data) {
        return inband.vendor_access(method, mad::kAttrExtPortAccess, attr_mod, data);
      }) {}

Result<std::vector<std::uint8_t>> InbandI2cAccess::transaction(std::uint8_t method, std::uint8_t device,
                                                               std::uint32_t offset, std::size_t size,
                                                               std::span<const std::uint8_t> data) {
  if (device > 0x7f)
    return make_error(ErrorCode::InvalidArgument, where(device, offset, size) + ": not a 7-bit i2c address");
  if (size > kMaxTransfer)
    return make_error(ErrorCode::InvalidArgument, where(device, offset, size) + ": more than the " +
                                                      std::to_string(kMaxTransfer) + " bytes of one transaction");
  std::vector<std::uint8_t> request(kDataAt + data.size());
  mad::put32(request.data(), kSizeAt, static_cast<std::uint32_t>(size));
  mad::put32(request.data(), kDeviceAt, device);
  mad::put32(request.data(), kMemoryAt, offset);
  std::copy(data.begin(), data.end(), request.begin() + static_cast<std::ptrdiff_t>(kDataAt));
  OF_ASSIGN_CTX(std::vector<std::uint8_t> answer, exchange_(method, mad::kExtPortI2c1, request),
                (method == mad::kMethodGet ? "reading " : "writing ") + where(device, offset, size));
  if (answer.size() < kDataAt + size)
    return make_error(ErrorCode::InvalidImage, where(device, offset, size) + ": the answer ends before its data");
  // A device answering another transaction's header is not answering ours.
  if (mad::get32(answer.data(), kSizeAt) != size || mad::get32(answer.data(), kDeviceAt) != device ||
      mad::get32(answer.data(), kMemoryAt) != offset)
    return make_error(ErrorCode::Io, where(device, offset, size) + ": the answer names another transaction");
  return answer;
}

Result<void> InbandI2cAccess::read(std::uint8_t device, std::uint32_t offset, std::span<std::uint8_t> out) {
  OF_ASSIGN(const auto answer, transaction(mad::kMethodGet, device, offset, out.size(), {}));
  std::copy_n(answer.begin() + static_cast<std::ptrdiff_t>(kDataAt), out.size(), out.begin());
  return {};
}

Result<void> InbandI2cAccess::write(std::uint8_t device, std::uint32_t offset, std::span<const std::uint8_t> bytes) {
  OF_TRY(transaction(mad::kMethodSet, device, offset, bytes.size(), bytes));
  return {};
}

}  // namespace openflint
