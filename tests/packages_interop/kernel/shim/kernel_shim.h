/* kernel_shim.h: the few kernel definitions the kernel's MFA2 parser (drivers/net/ethernet/mellanox/mlxfw)
 * and xz decoder (lib/xz) use, for building them as a userspace test oracle (tests/packages_interop).
 * Written for openflint; the kernel sources themselves are extracted from linux-source-6.1 at test time. */
#ifndef OPENFLINT_KERNEL_SHIM_H
#define OPENFLINT_KERNEL_SHIM_H

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef uint16_t __be16;
typedef uint32_t __be32;

#define __packed __attribute__((packed))
#define be16_to_cpu(x) ntohs(x)
#define be32_to_cpu(x) ntohl(x)
#define GFP_KERNEL 0
#define kzalloc(size, flags) calloc(1, (size))
#define kmalloc(size, flags) malloc(size)
#define kfree(p) free((void *)(p))
#define vzalloc(size) calloc(1, (size))
#define vmalloc(size) malloc(size)
#define vfree(p) free((void *)(p))
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define ERR_PTR(err) ((void *)(intptr_t)(err))
#define IS_ERR(p) ((uintptr_t)(p) >= (uintptr_t)-4095)
#define PTR_ERR(p) ((long)(intptr_t)(p))
#define fallthrough __attribute__((fallthrough))
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_err(fmt, ...) fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(...) ((void)0)
#define print_hex_dump_debug(...) ((void)0)
#define NLA_ALIGNTO 4
#define NLA_ALIGN(len) (((len) + NLA_ALIGNTO - 1) & ~(NLA_ALIGNTO - 1))

struct firmware {
  size_t size;
  const u8 *data;
};

/* What the flash state machine (mlxfw_fsm.c, fsm_harness.c) needs besides the parser. */
#define IS_REACHABLE(option) 1
#define EXPORT_SYMBOL(sym)
#define MODULE_LICENSE(text)
#define MODULE_AUTHOR(text)
#define MODULE_DESCRIPTION(text)
struct netlink_ext_ack {
  const char *_msg;
};
/* The kernel prefixes KBUILD_MODNAME, "mlxfw" for this library. */
#define NL_SET_ERR_MSG_MOD(extack, msg) \
  do {                                  \
    if (extack) (extack)->_msg = "mlxfw: " msg; \
  } while (0)
/* msleep() is virtual in the harness: it adds to a counter (fsm_harness.c), so a timeout of the
 * kernel's 30 s polling runs at once and the test reads how long the kernel would have waited. */
void of_kernel_msleep(unsigned int ms);
#define msleep(ms) of_kernel_msleep(ms)

#endif
