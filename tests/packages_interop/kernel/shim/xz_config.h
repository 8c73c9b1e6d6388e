/* xz_config.h: what lib/xz expects from a userspace build (it includes this when __KERNEL__ is unset). */
#ifndef OPENFLINT_XZ_CONFIG_H
#define OPENFLINT_XZ_CONFIG_H
#include <linux/xz.h>
#include "kernel_shim.h"
#define memeq(a, b, size) (memcmp((a), (b), (size)) == 0)
#define memzero(buf, size) memset((buf), 0, (size))
#define __always_inline inline __attribute__((always_inline))
static inline uint32_t get_le32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
#endif
