// UninterruptibleSection: steps that must complete together; check_interrupted() lets them run on.
#pragma once

namespace openflint {

// While one is alive on this thread, check_interrupted() reports no interruption: a journaled
// sector rewrite, a burn's last steps (new magic, boot address, old magic zeroed), a burn without
// failsafe, a PCI reset and its restore, a firmware update being verified or cancelled. A
// signal that lands meanwhile stays recorded and stops the work at the first safe point after
// the section. Per thread: a parallel burn's section does not hold back the others.
class UninterruptibleSection {
 public:
  UninterruptibleSection();
  ~UninterruptibleSection();
  UninterruptibleSection(const UninterruptibleSection&) = delete;
  UninterruptibleSection& operator=(const UninterruptibleSection&) = delete;
};

}  // namespace openflint
