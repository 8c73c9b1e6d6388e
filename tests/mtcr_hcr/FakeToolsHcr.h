// FakeToolsHcr: a tiny in-test model of a ConnectX-3's tools HCR in CR-space (semaphore, go, status, mailbox).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <vector>

#include "devices/ToolsHcrLayout.h"
#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/registers/MgirRegister.h"
#include "mtcr/RegisterAccess.h"

namespace openflint::test {

// The firmware answers register accesses (opcode 0x3b, CR mailbox) for MGIR with hw id 0x1f5,
// any other register with its request data. Everything it sees is recorded for the tests.
class FakeToolsHcr final : public RegisterAccess {
 public:
  static constexpr std::uint32_t kGo = 1u << 23;
  static constexpr std::uint16_t kHwId = 0x1f5;

  explicit FakeToolsHcr(const ToolsHcrLayout& layout = kConnectX3ToolsHcr)
      : layout_(layout), mailbox_(layout.mailbox_bytes / 4, 0) {}

  // Behaviour.
  bool other_holds_semaphore = false;  // another agent holds it and never lets go
  bool firmware_clears_go = true;      // false: a hung firmware, go stays set
  bool mailbox_mapped = true;          // false: firmware older than 2.31.5000 (writes vanish)
  std::uint8_t hcr_status = 0;         // the HCR status the firmware answers
  std::uint8_t register_status = 0;    // the register TLV status it answers
  std::size_t block_dwords = 16;

  // What happened.
  [[nodiscard]] bool held() const { return held_; }
  unsigned takes = 0;
  unsigned releases = 0;
  unsigned foreign_releases = 0;    // a 0 written while another agent held the semaphore
  unsigned unlocked_accesses = 0;   // HCR or mailbox touched without holding the semaphore
  unsigned oversized_blocks = 0;    // blocks longer than max_block_dwords()
  unsigned command_reads = 0;       // reads of the command dword
  std::vector<std::uint32_t> issued;           // command dwords written with go set
  std::vector<std::uint32_t> input_modifiers;  // dword 2 at each issue
  std::size_t mailbox_dwords_written = 0;      // distinct mailbox dwords written before the last issue
  std::uint32_t mailbox_read_end = 0;          // end (bytes) of the mailbox read since the last issue
  std::vector<AccessRegisterTlv> requests;     // register accesses the firmware decoded

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override {
    if (address == layout_.semaphore) {
      if (other_holds_semaphore) return 1u;
      if (held_) return 1u;
      held_ = true;
      ++takes;
      return 0u;
    }
    if (in_hcr(address)) {
      note_access();
      if (address == command_address()) ++command_reads;
      return hcr_[(address - layout_.hcr) / 4];
    }
    if (in_mailbox(address)) {
      note_access();
      const std::uint32_t offset = address - layout_.mailbox;
      mailbox_read_end = std::max(mailbox_read_end, offset + 4);
      return mailbox_mapped ? mailbox_[offset / 4] : 0u;
    }
    return plain_[address];
  }

  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override {
    if (address == layout_.semaphore) {
      if (value != 0) return {};
      if (other_holds_semaphore) ++foreign_releases;
      if (held_) ++releases;
      held_ = false;
      return {};
    }
    if (in_hcr(address)) {
      note_access();
      hcr_[(address - layout_.hcr) / 4] = value;
      if (address == command_address() && (value & kGo) != 0) issue(value);
      return {};
    }
    if (in_mailbox(address)) {
      note_access();
      if (!mailbox_mapped) return {};
      mailbox_[(address - layout_.mailbox) / 4] = value;
      written_.insert(address);
      return {};
    }
    plain_[address] = value;
    return {};
  }

  [[nodiscard]] Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) override {
    if (out.size() > block_dwords) ++oversized_blocks;
    return RegisterAccess::read_block(address, out);
  }
  [[nodiscard]] Result<void> write_block(std::uint32_t address, std::span<const std::uint32_t> values) override {
    if (values.size() > block_dwords) ++oversized_blocks;
    return RegisterAccess::write_block(address, values);
  }
  [[nodiscard]] std::size_t max_block_dwords() const override { return block_dwords; }

  [[nodiscard]] std::uint32_t mailbox_word(std::size_t index) const { return mailbox_[index]; }

 private:
  [[nodiscard]] std::uint32_t command_address() const { return layout_.hcr + 24; }
  [[nodiscard]] bool in_hcr(std::uint32_t a) const { return a >= layout_.hcr && a < layout_.hcr + 28; }
  [[nodiscard]] bool in_mailbox(std::uint32_t a) const {
    return a >= layout_.mailbox && a < layout_.mailbox + layout_.mailbox_bytes;
  }
  void note_access() {
    if (!held_) ++unlocked_accesses;
  }

  void issue(std::uint32_t command) {
    issued.push_back(command);
    input_modifiers.push_back(hcr_[2]);
    mailbox_dwords_written = written_.size();
    written_.clear();
    mailbox_read_end = 0;
    if (!firmware_clears_go) return;
    std::uint32_t status = hcr_status;
    if (status == 0 && (command & 0xfff) == kToolsHcrRegisterAccess && hcr_[2] == 1) answer_register();
    hcr_[6] = (command & ~kGo & 0x00ffffffu) | (status << 24);
  }

  void answer_register() {
    std::vector<std::uint8_t> bytes(mailbox_.size() * 4);
    for (std::size_t i = 0; i < mailbox_.size(); ++i)
      for (unsigned b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<std::uint8_t>(mailbox_[i] >> (24 - 8 * b));
    auto request = AccessRegisterTlv::decode(bytes);
    if (!request) return;
    requests.push_back(*request);
    AccessRegisterTlv answer = *request;
    answer.status = register_status;
    if (answer.register_id == MgirRegister::kId) {
      MgirRegister mgir;
      mgir.device_id = kHwId;
      mgir.major = 2;
      mgir.minor = 42;
      mgir.subminor = 5000;
      mgir.psid = "MT_1090120019";
      auto data = mgir.encode();
      data.resize(answer.data.size(), 0);
      answer.data = std::move(data);
    }
    auto encoded = answer.encode(bytes.size());
    if (!encoded) return;
    for (std::size_t i = 0; i < encoded->size(); i += 4)
      mailbox_[i / 4] = (std::uint32_t{(*encoded)[i]} << 24) | (std::uint32_t{(*encoded)[i + 1]} << 16) |
                        (std::uint32_t{(*encoded)[i + 2]} << 8) | (*encoded)[i + 3];
  }

  ToolsHcrLayout layout_;
  bool held_ = false;
  std::uint32_t hcr_[7] = {};
  std::vector<std::uint32_t> mailbox_;
  std::set<std::uint32_t> written_;
  std::map<std::uint32_t, std::uint32_t> plain_;
};

// CR-space as plain storage (no hardware semaphore, nothing answers the HCR): a part without the
// tools HCR, as a ConnectX-4's CR-space looks at these addresses.
class PlainCrSpace final : public RegisterAccess {
 public:
  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override { return words_[address]; }
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override {
    words_[address] = value;
    return {};
  }

 private:
  std::map<std::uint32_t, std::uint32_t> words_;
};

}  // namespace openflint::test
