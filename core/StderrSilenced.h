// StderrSilenced: file descriptor 2 points at /dev/null while alive, for library calls that print their own errors.
#pragma once

namespace openflint {

// libibnetdisc, libibmad and libibumad write their own lines to stderr when a port cannot be
// opened ("can't open MAD port ((null):0)"), with no switch to turn that off; our error then
// says the same once more, in our words. Around such calls, fd 2 goes to /dev/null and comes
// back when the guard is dropped. Guards may nest and may be taken by several threads: the
// first one redirects, the last one restores; meanwhile, anything any thread writes to stderr is
// lost, so hold one only around the library call itself. Best effort: when /dev/null cannot be
// opened, stderr stays as it is.
class StderrSilenced {
 public:
  StderrSilenced();
  ~StderrSilenced();
  StderrSilenced(const StderrSilenced&) = delete;
  StderrSilenced& operator=(const StderrSilenced&) = delete;
};

}  // namespace openflint
