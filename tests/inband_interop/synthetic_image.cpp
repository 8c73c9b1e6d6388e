// Builds the shared synthetic FS3 image generator (tests/images) into this test binary.
#include "tests/images/SyntheticImage.cpp"  // NOLINT(bugprone-suspicious-include)
