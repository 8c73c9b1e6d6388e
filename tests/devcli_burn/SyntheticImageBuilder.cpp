// SyntheticImageBuilder: compiles the FS3/FS4 synthetic-image builder of tests/images into this
// test executable too (each test folder is its own target; the builder stays where it is).
#include "tests/images/SyntheticImage.cpp"  // NOLINT(bugprone-suspicious-include)
