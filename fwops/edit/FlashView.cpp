// FlashView: on-demand block loading.
#include "fwops/edit/FlashView.h"

#include <algorithm>

namespace openflint {

FlashView::FlashView(std::uint64_t size, Reader reader)
    : data_(static_cast<std::size_t>(size), 0xff),
      loaded_(static_cast<std::size_t>((size + kBlock - 1) / kBlock), false),
      reader_(std::move(reader)) {}

FlashView FlashView::of_bytes(Bytes bytes) {
  FlashView view(0, nullptr);
  view.borrowed_ = bytes;
  return view;
}

Result<void> FlashView::ensure(std::uint64_t address, std::uint64_t length) {
  if (!borrowed_.empty() || address >= data_.size() || length == 0) return {};
  const std::uint64_t end = std::min<std::uint64_t>(data_.size(), address + length);
  std::uint64_t block = address / kBlock;
  const std::uint64_t last = (end - 1) / kBlock;
  while (block <= last) {
    if (loaded_[block]) {
      ++block;
      continue;
    }
    std::uint64_t run_end = block;  // read runs of missing blocks in one go
    while (run_end + 1 <= last && !loaded_[run_end + 1]) ++run_end;
    const std::uint64_t from = block * kBlock;
    const std::uint64_t to = std::min<std::uint64_t>(data_.size(), (run_end + 1) * kBlock);
    if (!reader_) return make_error(ErrorCode::Internal, "flash view has no reader");
    OF_TRY(reader_(from, std::span(data_).subspan(from, to - from)));
    bytes_read_ += to - from;
    for (std::uint64_t b = block; b <= run_end; ++b) loaded_[b] = true;
    block = run_end + 1;
  }
  return {};
}

Result<std::uint32_t> FlashView::be32(std::uint64_t address) {
  OF_TRY(ensure(address, 4));
  const Bytes b = bytes();
  if (address + 4 > b.size()) return 0xffffffffu;
  return ByteReader::load_be32(b.data() + address);
}

}  // namespace openflint
