// SpiOpcode: the SPI NOR command set shared by the flash driver and the simulated chip.
#pragma once

#include <cstdint>

namespace openflint::spi {

inline constexpr std::uint8_t kWriteEnable = 0x06;     // WREN
inline constexpr std::uint8_t kReadStatus = 0x05;      // RDSR: bit 0 WIP, bit 1 WEL
inline constexpr std::uint8_t kReadJedecId = 0x9f;
inline constexpr std::uint8_t kReadSignature = 0xab;   // RES: 3 dummy bytes, then the signature
inline constexpr std::uint8_t kRead = 0x03;
inline constexpr std::uint8_t kRead4 = 0x13;
inline constexpr std::uint8_t kPageProgram = 0x02;
inline constexpr std::uint8_t kPageProgram4 = 0x12;
inline constexpr std::uint8_t kSubsectorErase = 0x20;  // 4 KiB
inline constexpr std::uint8_t kSubsectorErase4 = 0x21;
inline constexpr std::uint8_t kSectorErase = 0xd8;     // 64 KiB
inline constexpr std::uint8_t kSectorErase4 = 0xdc;

inline constexpr std::uint8_t kStatusWip = 0x01;
inline constexpr std::uint8_t kStatusWel = 0x02;

}  // namespace openflint::spi
