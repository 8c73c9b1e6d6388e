// PciBarAccess: CR-space through a PCI device's memory BAR0 (sysfs resource0, mapped shared).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <utility>

#include "core/Result.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

// Opened on a sysfs device directory such as /sys/bus/pci/devices/0000:03:00.0 (or the same
// layout under a test tree): BAR0's size comes from line 0 of `resource` ("start end flags",
// hex), `resource0` is opened O_RDWR|O_SYNC and mapped MAP_SHARED for exactly that size, after
// checking the file is at least that long (a shorter file would raise SIGBUS on access).
// CR-space dwords are big-endian in the BAR; read32/write32 convert to host order. Every access
// is bounds-checked: an address outside the BAR is ErrorCode::InvalidArgument, never a signal.
// Loads are acquire and stores release (plain moves on x86), so a gateway's ADDR/DATA stores
// are seen before its CMD store and DATA is read after the CMD load that showed BUSY clear.
// Move-only; the mapping and the file descriptor go with the object.
class PciBarAccess final : public RegisterAccess {
 public:
  // Reads the hw id at 0xf0014 once mapped: 0xffffffff or 0xbadacce5 mean the BAR path is
  // unusable (ErrorCode::NotSupported: callers fall back to config-space access); 0xbad0cafe
  // means the host is restricted (secure mode, ErrorCode::PermissionDenied).
  [[nodiscard]] static Result<PciBarAccess> open(const std::filesystem::path& device_dir);

  PciBarAccess(PciBarAccess&& other) noexcept;
  PciBarAccess& operator=(PciBarAccess&& other) noexcept;
  PciBarAccess(const PciBarAccess&) = delete;
  PciBarAccess& operator=(const PciBarAccess&) = delete;
  ~PciBarAccess() override;

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override;
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override;
  [[nodiscard]] Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) override;
  [[nodiscard]] Result<void> write_block(std::uint32_t address, std::span<const std::uint32_t> values) override;
  // Blocks go straight through the mapping: no per-transaction limit worth splitting on.
  [[nodiscard]] std::size_t max_block_dwords() const override { return kMaxBlockDwords; }

  // The word read at 0xf0014 when the BAR was opened (hw id, revision in [23:16]).
  [[nodiscard]] std::uint32_t hw_id_word() const { return hw_id_word_; }
  [[nodiscard]] std::uint64_t bar_size() const { return size_; }
  [[nodiscard]] const std::filesystem::path& device_dir() const { return device_dir_; }

 private:
  static constexpr std::size_t kMaxBlockDwords = 1u << 16;

  PciBarAccess(std::filesystem::path device_dir, int fd, volatile std::uint32_t* base, std::uint64_t size)
      : device_dir_(std::move(device_dir)), fd_(fd), base_(base), size_(size) {}
  [[nodiscard]] Result<void> check_range(std::uint32_t address, std::size_t dwords) const;
  [[nodiscard]] std::uint32_t load(std::uint32_t address) const;
  void store(std::uint32_t address, std::uint32_t value);
  void reset();

  std::filesystem::path device_dir_;
  int fd_ = -1;
  volatile std::uint32_t* base_ = nullptr;
  std::uint64_t size_ = 0;
  std::uint32_t hw_id_word_ = 0;
};

}  // namespace openflint
