// RegisterDump: merges the catalog ranges, reads them in transport-sized blocks, skips lock registers.
#include "fwops/registers/RegisterDump.h"

#include <algorithm>

#include "core/HexString.h"
#include "core/Interrupt.h"

namespace openflint {
namespace {

struct Span {
  std::uint64_t first = 0;  // byte addresses, [first, end)
  std::uint64_t end = 0;
};

// The selected ranges as disjoint, ascending byte spans.
std::vector<Span> merged_spans(const std::vector<DumpRange>& ranges) {
  std::vector<Span> spans;
  for (const DumpRange& r : ranges) spans.push_back({r.first, std::uint64_t{r.first} + 4ull * r.dwords});
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.first < b.first; });
  std::vector<Span> out;
  for (const Span& s : spans) {
    if (!out.empty() && s.first <= out.back().end) {
      out.back().end = std::max(out.back().end, s.end);
    } else {
      out.push_back(s);
    }
  }
  return out;
}

}  // namespace

Result<RegisterDump> dump_registers(RegisterAccess& access, const DeviceInfo& info, const RegisterDumpOptions& options) {
  RegisterDump dump;
  for (const DumpRange& r : info.cr_space.dump_ranges)
    if (options.full || !r.full_only) dump.ranges.push_back(r);
  if (dump.ranges.empty())
    return make_error(ErrorCode::NotSupported, "the catalog lists no register-dump ranges for " + std::string(info.name));
  dump.registers = cr_registers(info);

  const std::size_t block = std::max<std::size_t>(1, access.max_block_dwords());
  std::vector<std::uint32_t> buffer(block);
  for (const Span& span : merged_spans(dump.ranges)) {
    std::uint64_t at = span.first;
    while (at < span.end) {
      const CrRegister* reg = find_cr_register(dump.registers, static_cast<std::uint32_t>(at));
      if (reg != nullptr && reg->read_effect == ReadEffect::TakesLock) {
        dump.skipped.push_back({reg->address, reg->name, "reading it takes a lock (a read is a test-and-set)"});
        at += 4;
        continue;
      }
      // The run up to the next lock register, the span's end or the transport's block size.
      std::uint64_t run_end = std::min<std::uint64_t>(span.end, at + 4ull * block);
      for (const CrRegister& r : dump.registers)
        if (r.read_effect == ReadEffect::TakesLock && r.address > at && r.address < run_end) run_end = r.address;
      const auto count = static_cast<std::size_t>((run_end - at) / 4);
      const std::span<std::uint32_t> out(buffer.data(), count);
      OF_TRY(check_interrupted());  // a safe point between block reads
      ++dump.transactions;
      OF_TRY_CTX(access.read_block(static_cast<std::uint32_t>(at), out),
                 "reading " + std::to_string(count) + " dwords at " + hex_string(at));
      for (std::size_t i = 0; i < count; ++i) dump.words.push_back({static_cast<std::uint32_t>(at + 4 * i), out[i]});
      at = run_end;
    }
  }
  return dump;
}

}  // namespace openflint
