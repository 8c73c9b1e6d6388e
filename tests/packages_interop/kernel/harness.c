/* harness.c: runs the kernel's own MFA2 parser (mlxfw_mfa2.c, built from linux-source-6.1 at test time)
 * on a package: usage `harness FILE OUTDIR PSID...`. For each PSID it prints
 * "PSID COMPONENT IDENTIFIER SIZE" per component the kernel would flash and writes the component's
 * bytes to OUTDIR/PSID.COMPONENT.bin. Exit 1 when the kernel refuses the file or a PSID. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_shim.h"
#include "mlxfw_mfa2.h"

void xz_crc32_init(void);

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
  xz_crc32_init();
  struct firmware fw = {0, NULL};
  u8 *data = read_all(argv[1], &fw.size);
  if (data == NULL) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  fw.data = data;
  if (!mlxfw_mfa2_check(&fw)) {
    fprintf(stderr, "kernel: Firmware file is not MFA2\n");
    return 1;
  }
  struct mlxfw_mfa2_file *file = mlxfw_mfa2_file_init(&fw);
  if (IS_ERR(file)) {
    fprintf(stderr, "kernel: mlxfw_mfa2_file_init failed (%ld)\n", PTR_ERR(file));
    return 1;
  }
  int status = 0;
  for (int i = 3; i < argc; ++i) {
    const char *psid = argv[i];
    u32 count = 0;
    if (mlxfw_mfa2_file_component_count(file, psid, (u32)strlen(psid), &count) != 0) {
      fprintf(stderr, "kernel: no device %s\n", psid);
      status = 1;
      continue;
    }
    for (u32 c = 0; c < count; ++c) {
      struct mlxfw_mfa2_component *comp = mlxfw_mfa2_file_component_get(file, psid, (int)strlen(psid), (int)c);
      if (IS_ERR(comp)) {
        fprintf(stderr, "kernel: %s component %u: error %ld\n", psid, c, PTR_ERR(comp));
        status = 1;
        continue;
      }
      printf("%s %u %u %u\n", psid, c, comp->index, comp->data_size);
      char out[4096];
      snprintf(out, sizeof out, "%s/%s.%u.bin", argv[2], psid, c);
      FILE *f = fopen(out, "wb");
      if (f == NULL || fwrite(comp->data, 1, comp->data_size, f) != comp->data_size) status = 1;
      if (f != NULL) fclose(f);
      mlxfw_mfa2_file_component_put(comp);
    }
  }
  mlxfw_mfa2_file_fini(file);
  free(data);
  return status;
}
