// ReadOnlyWrites: which CR-space writes a read-only bus server lets through — those a flash read needs, nothing that changes the flash or the device.
#pragma once

#include <cstdint>

#include "core/Result.h"
#include "devices/FlashGatewayInfo.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

// A client reads flash through the device's CR-space gateway with writes: the flash address,
// a CMD word that starts a read, the flash lock's release, the bus and bank set-up of the
// parallel gateway. `mst server --read-only` answers those and refuses every other write
// (docs/remote.md, "--read-only"). Allowed, on the device's gateway (catalog data):
//  - SPI gateways: ADDR (on the InfiniHost III Lx style it also carries the opcode, which the
//    CMD check reads back); a CMD word that starts nothing (no BUSY bit: a plain store, e.g. the
//    CMD-bit-31 lock's release); a CMD word whose SPI opcode, when it sends one, is a read
//    (READ, READ4, RDSR, RDID, RES) and whose data phase, when it has one, reads; the flash bank
//    select and chip-select support registers, only in their bank / chip-select bits.
//  - the parallel (CFI) gateway: DATA; a CMD word that starts nothing or a 4-byte read cycle, or
//    a 1-byte write cycle whose byte (read back from DATA) is a read-mode command (read array
//    0xff, reset 0xf0, CFI query 0x98, read identifier 0x90, read status 0x70); CPUMODE and the
//    GPIO registers only in the bus hand-over field and the bank-select bits.
//  - the flash semaphore: writing 0 (giving the lock back; taking it is a read).
//  - the cache-replacement guard's trigger (the read-only hw-id register the --ocr override writes).
// Anything else — an erase, a program, WREN, WRSR, a data phase that sends, a plain CR-space
// write — is refused: PermissionDenied with a one-line reason. Reads the current value of a
// register where the answer depends on it (ADDR, DATA, the bit-field registers).
[[nodiscard]] Result<void> check_read_only_write(RegisterAccess& access, const FlashGatewayInfo& gateway,
                                                 std::uint32_t address, std::uint32_t value);

}  // namespace openflint
