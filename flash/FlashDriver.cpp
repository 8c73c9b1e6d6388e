// FlashDriver: a device's flash opened through the bus its gateway generation has (a table), and range checks.
#include "flash/FlashDriver.h"

#include <string>

#include "core/HexString.h"
#include "flash/EepromFlash.h"
#include "flash/ParallelFlash.h"
#include "flash/SpiGatewayBus.h"

namespace openflint {
namespace {

// How each gateway generation's flash is opened (flashrom's programmer table): the bus over the
// gateway, and whether every read costs a round trip. The gateway's lock is already held.
struct OpenedBus {
  std::unique_ptr<FlashBus> bus;
  bool costly = false;
};

struct BusOpener {
  bool (*matches)(const FlashGatewayInfo& gateway);
  // `i2c`: the device's I2C bus (FlashDriver::open), EEPROM gateways only.
  Result<OpenedBus> (*open)(RegisterAccess& access, I2cAccess* i2c, const FlashGatewayInfo& gateway,
                            FlashTimeouts timeouts, CacheReplacement cache);
};

Result<OpenedBus> open_parallel(RegisterAccess& access, I2cAccess* /*i2c*/, const FlashGatewayInfo& gateway,
                                FlashTimeouts timeouts, CacheReplacement /*cache*/) {
  OF_ASSIGN_CTX(std::unique_ptr<ParallelFlash> bus, ParallelFlash::open(access, gateway, timeouts),
                "probing the parallel flash");
  return OpenedBus{std::move(bus), access.costly_access()};
}

Result<OpenedBus> open_eeproms(RegisterAccess& access, I2cAccess* i2c, const FlashGatewayInfo& gateway,
                               FlashTimeouts timeouts, CacheReplacement /*cache*/) {
  if (i2c == nullptr)
    return make_error(ErrorCode::NotSupported, "the firmware EEPROMs sit on the device's I2C bus, which this "
                                               "transport does not reach");
  OF_ASSIGN_CTX(std::unique_ptr<EepromFlash> bus, EepromFlash::open(*i2c, gateway.eeprom, timeouts),
                "opening the firmware EEPROMs");
  return OpenedBus{std::move(bus), access.costly_access() || i2c->costly_access()};
}

Result<OpenedBus> open_spi(RegisterAccess& access, I2cAccess* /*i2c*/, const FlashGatewayInfo& gateway,
                           FlashTimeouts timeouts, CacheReplacement cache) {
  OF_ASSIGN(std::unique_ptr<SpiGatewayBus> bus, SpiGatewayBus::open(access, gateway, timeouts, cache));
  return OpenedBus{std::move(bus), access.costly_access()};
}

constexpr BusOpener kBusOpeners[] = {
    {[](const FlashGatewayInfo& g) { return g.is_parallel_gateway(); }, open_parallel},
    {[](const FlashGatewayInfo& g) { return g.is_i2c_eeprom(); }, open_eeproms},
    {[](const FlashGatewayInfo& /*g*/) { return true; }, open_spi},  // every SPI gateway generation
};

}  // namespace

FlashDriver::FlashDriver(std::unique_ptr<FlashBus> bus, bool costly_reads, std::optional<FlashLock> lock)
    : lock_(std::move(lock)), bus_(std::move(bus)), costly_(costly_reads) {}

FlashDriver FlashDriver::over_bus(std::unique_ptr<FlashBus> bus, bool costly_reads) {
  return FlashDriver(std::move(bus), costly_reads, std::nullopt);
}

Result<FlashDriver> FlashDriver::open(RegisterAccess& access, const FlashGatewayInfo& gateway,
                                      FlashTimeouts timeouts, CacheReplacement cache, I2cAccess* i2c) {
  if (!gateway.is_driven()) {
    return make_error(ErrorCode::NotSupported, "flash gateway generation '" +
                                                   std::string(to_string(gateway.generation)) +
                                                   "' is not driven by this driver");
  }
  OF_ASSIGN(FlashLock lock, FlashLock::acquire(access, gateway, timeouts.lock));
  for (const BusOpener& opener : kBusOpeners) {
    if (!opener.matches(gateway)) continue;
    OF_ASSIGN(OpenedBus opened, opener.open(access, i2c != nullptr ? i2c : access.i2c(), gateway, timeouts, cache));
    return FlashDriver(std::move(opened.bus), opened.costly, std::move(lock));
  }
  return make_error(ErrorCode::Internal, "no opener for flash gateway generation '" +
                                             std::string(to_string(gateway.generation)) + "'");
}

Result<std::uint8_t> FlashDriver::read_status() { return bus_->read_status(); }

Result<void> FlashDriver::check_range(std::uint64_t address, std::uint64_t length) const {
  if (address > chip().size || length > chip().size - address) {
    return make_error(ErrorCode::InvalidArgument,
                      "range " + hex_string(address) + "+" + hex_string(length) + " is outside the " +
                          std::to_string(chip().size) + "-byte flash");
  }
  return {};
}

}  // namespace openflint
