/* pldm_shim.h: the few kernel definitions the kernel's PLDM firmware parser (lib/pldmfw/pldmfw.c) uses,
 * for building it as a userspace test oracle (tests/packages_interop). Written for openflint; the kernel
 * sources themselves are extracted from linux-source-6.1 at test time. */
#ifndef OPENFLINT_PLDM_SHIM_H
#define OPENFLINT_PLDM_SHIM_H

#include <errno.h>
#include <limits.h>
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
typedef uint16_t __le16;
typedef uint32_t __le32;

#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#define BIT(n) (1UL << (n))
#define GFP_KERNEL 0
#define kzalloc(size, flags) calloc(1, (size))
#define kfree(p) free((void *)(p))
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define WARN_ON(cond) (!!(cond))
#define EXPORT_SYMBOL(sym)
#define MODULE_AUTHOR(x)
#define MODULE_LICENSE(x)
#define MODULE_DESCRIPTION(x)
/* The parser's debug messages say why it refused a file: keep them, on stderr. */
#define dev_dbg(dev, fmt, ...) fprintf(stderr, "pldmfw: " fmt, ##__VA_ARGS__)

static inline u16 get_unaligned_le16(const void *p) {
  const u8 *b = (const u8 *)p;
  return (u16)(b[0] | (b[1] << 8));
}
static inline u32 get_unaligned_le32(const void *p) {
  const u8 *b = (const u8 *)p;
  return (u32)b[0] | ((u32)b[1] << 8) | ((u32)b[2] << 16) | ((u32)b[3] << 24);
}

/* crc32_le: the reflected IEEE 802.3 CRC with the caller's seed and no final inversion. */
static inline u32 crc32_le(u32 crc, const u8 *p, size_t len) {
  while (len-- > 0) {
    crc ^= *p++;
    for (int i = 0; i < 8; ++i) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return crc;
}

typedef struct {
  u8 b[16];
} uuid_t;
#define UUID_INIT(a, b, c, d0, d1, d2, d3, d4, d5, d6, d7)                                              \
  ((uuid_t){{((a) >> 24) & 0xff, ((a) >> 16) & 0xff, ((a) >> 8) & 0xff, (a) & 0xff, ((b) >> 8) & 0xff, \
             (b) & 0xff, ((c) >> 8) & 0xff, (c) & 0xff, (d0), (d1), (d2), (d3), (d4), (d5), (d6), (d7)}})
static inline bool uuid_equal(const uuid_t *a, const uuid_t *b) { return memcmp(a, b, sizeof(uuid_t)) == 0; }

#define BITS_PER_LONG (sizeof(unsigned long) * CHAR_BIT)
static inline unsigned long *bitmap_zalloc(unsigned int nbits, int flags) {
  (void)flags;
  return calloc((nbits + BITS_PER_LONG - 1) / BITS_PER_LONG + 1, sizeof(unsigned long));
}
static inline void bitmap_free(unsigned long *map) { free(map); }
static inline void bitmap_set_value8(unsigned long *map, unsigned long value, unsigned long start) {
  const size_t index = start / BITS_PER_LONG;
  const size_t offset = start % BITS_PER_LONG;
  map[index] &= ~(0xFFUL << offset);
  map[index] |= (value & 0xFFUL) << offset;
}
static inline bool test_bit(unsigned long nr, const unsigned long *map) {
  return (map[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1UL;
}
static inline unsigned long find_first_bit(const unsigned long *map, unsigned long size) {
  for (unsigned long i = 0; i < size; ++i)
    if (test_bit(i, map)) return i;
  return size;
}
static inline unsigned long find_last_bit(const unsigned long *map, unsigned long size) {
  for (unsigned long i = size; i-- > 0;)
    if (test_bit(i, map)) return i;
  return size;
}

struct list_head {
  struct list_head *next, *prev;
};
static inline void INIT_LIST_HEAD(struct list_head *list) { list->next = list->prev = list; }
static inline void list_add_tail(struct list_head *entry, struct list_head *head) {
  entry->prev = head->prev;
  entry->next = head;
  head->prev->next = entry;
  head->prev = entry;
}
static inline void list_del(struct list_head *entry) {
  entry->prev->next = entry->next;
  entry->next->prev = entry->prev;
}
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_for_each_entry(pos, head, member)                                                           \
  for (pos = list_entry((head)->next, __typeof__(*pos), member); &pos->member != (head);                 \
       pos = list_entry(pos->member.next, __typeof__(*pos), member))
#define list_for_each_entry_safe(pos, n, head, member)                                                   \
  for (pos = list_entry((head)->next, __typeof__(*pos), member),                                         \
      n = list_entry(pos->member.next, __typeof__(*pos), member);                                        \
       &pos->member != (head); pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

struct firmware {
  size_t size;
  const u8 *data;
};

struct device {
  int unused;
};
struct pci_dev {
  struct device dev;
  unsigned short vendor, device, subsystem_vendor, subsystem_device;
};
#define to_pci_dev(d) container_of(d, struct pci_dev, dev)
#define PCI_ANY_ID (~0)

#endif
