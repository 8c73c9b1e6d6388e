/* pldm_harness.c: runs the kernel's own PLDM firmware update engine (lib/pldmfw/pldmfw.c, built from
 * linux-source-6.1 at test time) on a package: usage `pldm_harness FILE OUTDIR PSID...`.
 * For each PSID it calls pldmfw_flash_image() with a driver whose match_record is the kernel's PCI
 * descriptor match (a Mellanox device, 0x15b3) plus NVIDIA's vendor-defined "PSID" descriptor equal to
 * the PSID; for each component the engine then flashes it prints "PSID INDEX IDENTIFIER SIZE" and
 * writes the bytes to OUTDIR/PSID.INDEX.bin. Exit 1 when the kernel refuses the file or a PSID (its
 * errno is printed), 2 on a usage or I/O error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pldm_shim.h"
#include <linux/pldmfw.h>

struct harness {
  struct pldmfw context;
  const char *psid;
  const char *outdir;
  int io_error;
};

static bool match_psid(struct pldmfw *context, struct pldmfw_record *record) {
  struct harness *h = container_of(context, struct harness, context);
  if (!pldmfw_op_pci_match_record(context, record)) return false;
  struct pldmfw_desc_tlv *desc;
  list_for_each_entry(desc, &record->descs, entry) {
    /* {u8 title type, u8 title length, title, value} */
    if (desc->type != PLDM_DESC_ID_VENDOR_DEFINED || desc->size < 2) continue;
    const u8 title_len = desc->data[1];
    if ((size_t)title_len + 2 > desc->size || title_len != 4 || memcmp(desc->data + 2, "PSID", 4) != 0) continue;
    const char *value = (const char *)desc->data + 2 + title_len;
    const size_t len = strnlen(value, desc->size - 2 - title_len);
    if (len == strlen(h->psid) && memcmp(value, h->psid, len) == 0) return true;
  }
  return false;
}

static int send_package_data(struct pldmfw *context, const u8 *data, u16 length) {
  (void)context;
  (void)data;
  (void)length;
  return 0;
}

static int send_component_table(struct pldmfw *context, struct pldmfw_component *component, u8 transfer_flag) {
  (void)context;
  (void)component;
  (void)transfer_flag;
  return 0;
}

static int flash_component(struct pldmfw *context, struct pldmfw_component *component) {
  struct harness *h = container_of(context, struct harness, context);
  printf("%s %u %u %u\n", h->psid, component->index, component->identifier, component->component_size);
  char out[4096];
  snprintf(out, sizeof out, "%s/%s.%u.bin", h->outdir, h->psid, component->index);
  FILE *f = fopen(out, "wb");
  if (f == NULL || fwrite(component->component_data, 1, component->component_size, f) != component->component_size)
    h->io_error = 1;
  if (f != NULL) fclose(f);
  return 0;
}

static const struct pldmfw_ops harness_ops = {
    .match_record = match_psid,
    .send_package_data = send_package_data,
    .send_component_table = send_component_table,
    .flash_component = flash_component,
};

static u8 *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  u8 *data = malloc(n > 0 ? (size_t)n : 1);
  if (data == NULL || fread(data, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    free(data);
    return NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s FILE OUTDIR PSID...\n", argv[0]);
    return 2;
  }
  struct firmware fw = {0, NULL};
  u8 *data = read_all(argv[1], &fw.size);
  if (data == NULL) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  fw.data = data;
  struct pci_dev pdev = {.vendor = 0x15b3, .device = 0x1017, .subsystem_vendor = 0x15b3, .subsystem_device = 0x0001};
  int status = 0;
  for (int i = 3; i < argc; ++i) {
    struct harness h = {.context = {.ops = &harness_ops, .dev = &pdev.dev}, .psid = argv[i], .outdir = argv[2]};
    const int err = pldmfw_flash_image(&h.context, &fw);
    if (err != 0) {
      fprintf(stderr, "kernel: %s: pldmfw_flash_image failed (%d)\n", argv[i], err);
      printf("%s error %d\n", argv[i], err);
      status = 1;
    }
    if (h.io_error) status = 2;
  }
  free(data);
  return status;
}
