// mtcr-tool: minimal in-band CR-space client for tests (read/write/readblock/swreset/regaccess/bench/flash).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/OutputFile.h"
#include "devices/DeviceCatalog.h"
#include "flash/FlashDriver.h"
#include "mtcr/inband/InbandAccess.h"
#include "mtcr/inband/InbandI2cAccess.h"

namespace {

void usage() {
  std::fprintf(stderr,
               "usage: mtcr-tool -d DEVICE [--timeout MS] [--retries N] COMMAND\n"
               "  read ADDR | write ADDR VALUE | readblock ADDR DWORDS | writeblock ADDR V...\n"
               "  swreset [SECONDS] | regaccess BYTE... | bench BYTES\n"
               "  flashread OFFSET LENGTH FILE  (flash gateway of the catalog device named by the hw id)\n"
               "  i2cread I2C_ADDR OFFSET LENGTH | i2cwrite I2C_ADDR OFFSET BYTE...  (ExtPortAccess, I2C port #1)\n");
}

bool parse_u32(const std::string& text, std::uint32_t& out) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(text.c_str(), &end, 0);
  if (text.empty() || *end != '\0' || v > 0xffffffffUL) return false;
  out = static_cast<std::uint32_t>(v);
  return true;
}

int fail(const openflint::Error& e) {
  std::fprintf(stderr, "mtcr-tool: %s: %s\n", std::string(openflint::to_string(e.code())).c_str(), e.message().c_str());
  return e.code() == openflint::ErrorCode::Timeout ? 3 : 1;
}

// Reads flash through the device's own gateway (found in the catalog by the hw id at 0xf0014).
int flash_read(openflint::InbandAccess& dev, std::uint32_t offset, std::uint32_t length, const std::string& file) {
  const auto start = std::chrono::steady_clock::now();
  auto hw = dev.read32(0xf0014);
  if (!hw) return fail(hw.error());
  auto info = openflint::find_device_by_hw_id(static_cast<std::uint16_t>(*hw & 0xffff), static_cast<std::uint8_t>(*hw >> 16));
  if (!info) return fail(info.error());
  auto driver = openflint::FlashDriver::open(dev, (*info)->flash_gateway);
  if (!driver) return fail(driver.error());
  auto bytes = driver->read(offset, length);
  if (!bytes) return fail(bytes.error());
  if (auto written = openflint::write_output_file(file, *bytes); !written) return fail(written.error());
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("hw_id=0x%x jedec=0x%06x bytes=%u mads=%llu ms=%.1f\n", *hw & 0xffff, driver->jedec_id(), length,
              static_cast<unsigned long long>(dev.mads_sent()), ms);
  return 0;
}

int run(openflint::InbandAccess& dev, const std::vector<std::string>& cmd) {
  if (cmd[0] == "flashread" && cmd.size() == 4) {
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
    if (!parse_u32(cmd[1], offset) || !parse_u32(cmd[2], length)) { usage(); return 2; }
    return flash_read(dev, offset, length, cmd[3]);
  }
  std::vector<std::uint32_t> nums;
  for (std::size_t i = 1; i < cmd.size(); ++i) {
    std::uint32_t v = 0;
    if (!parse_u32(cmd[i], v)) { usage(); return 2; }
    nums.push_back(v);
  }
  const std::string& op = cmd[0];
  if (op == "read" && nums.size() == 1) {
    auto v = dev.read32(nums[0]);
    if (!v) return fail(v.error());
    std::printf("0x%08x\n", *v);
  } else if (op == "write" && nums.size() == 2) {
    if (auto r = dev.write32(nums[0], nums[1]); !r) return fail(r.error());
  } else if (op == "readblock" && nums.size() == 2) {
    auto v = dev.read_block(nums[0], nums[1]);
    if (!v) return fail(v.error());
    for (std::uint32_t w : *v) std::printf("0x%08x\n", w);
  } else if (op == "writeblock" && nums.size() >= 2) {
    std::vector<std::uint32_t> values(nums.begin() + 1, nums.end());
    if (auto r = dev.write_block(nums[0], values); !r) return fail(r.error());
  } else if (op == "swreset" && nums.size() <= 1) {
    if (auto r = dev.sw_reset(static_cast<std::uint8_t>(nums.empty() ? 15 : nums[0])); !r) return fail(r.error());
  } else if (op == "i2cread" && nums.size() == 3 && nums[0] <= 0xff) {
    openflint::InbandI2cAccess i2c(dev);
    std::vector<std::uint8_t> bytes(nums[2]);
    if (auto r = i2c.read(static_cast<std::uint8_t>(nums[0]), nums[1], bytes); !r) return fail(r.error());
    for (std::uint8_t b : bytes) std::printf("%02x", b);
    std::printf("\n");
  } else if (op == "i2cwrite" && nums.size() >= 3 && nums[0] <= 0xff) {
    openflint::InbandI2cAccess i2c(dev);
    std::vector<std::uint8_t> bytes;
    for (std::size_t i = 2; i < nums.size(); ++i) bytes.push_back(static_cast<std::uint8_t>(nums[i]));
    if (auto r = i2c.write(static_cast<std::uint8_t>(nums[0]), nums[1], bytes); !r) return fail(r.error());
  } else if (op == "regaccess") {
    std::vector<std::uint8_t> payload(nums.begin(), nums.end());
    auto r = dev.access_register(payload);
    if (!r) return fail(r.error());
    for (std::uint8_t b : *r) std::printf("%02x", b);
    std::printf("\n");
  } else if (op == "bench" && nums.size() == 1) {
    const auto start = std::chrono::steady_clock::now();
    auto v = dev.read_block(0, nums[0] / 4);
    if (!v) return fail(v.error());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("bytes=%u mads=%llu ms=%.1f\n", nums[0], static_cast<unsigned long long>(dev.mads_sent()), ms);
  } else {
    usage();
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string device;
  openflint::InbandAccess::Options options;
  std::vector<std::string> cmd;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::uint32_t v = 0;
    if (arg == "-d" && i + 1 < argc) { device = argv[++i]; continue; }
    if (arg == "--timeout" && i + 1 < argc && parse_u32(argv[i + 1], v)) { options.timeout_ms = static_cast<int>(v); ++i; continue; }
    if (arg == "--retries" && i + 1 < argc && parse_u32(argv[i + 1], v)) { options.retries = static_cast<int>(v); ++i; continue; }
    cmd.push_back(arg);
  }
  if (device.empty() || cmd.empty()) { usage(); return 2; }
  auto dev = openflint::InbandAccess::open(device, options);
  if (!dev) return fail(dev.error());
  return run(*dev, cmd);
}
