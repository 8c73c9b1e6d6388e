/* fsm_harness.c: the kernel's flash state machine (mlxfw_fsm.c, with mlxfw_mfa2*.c and lib/xz, all
 * built from linux-source-6.1 at test time) as a shared library: of_mlxfw_flash() runs
 * mlxfw_firmware_flash() with an mlxfw_dev whose ops call the test's bridge (fsm_bridge.h).
 * Written for openflint; none of the kernel's code is in the repository. */
#include <stdio.h>
#include <string.h>

#include "kernel_shim.h"
#include "mlxfw.h"
#include "fsm_bridge.h"

void xz_crc32_init(void);

struct of_run {
  struct mlxfw_dev mlxfw_dev; /* first: the ops get it back */
  struct devlink devlink;
  const struct of_fsm_ops *ops;
};

static unsigned long of_slept_ms;

void of_kernel_msleep(unsigned int ms) { of_slept_ms += ms; }

void devlink_flash_update_status_notify(struct devlink *devlink, const char *status_msg, const char *component,
                                        unsigned long done, unsigned long total) {
  const struct of_run *run = devlink->harness;
  if (run->ops->status) run->ops->status(run->ops->ctx, status_msg, component, done, total);
}

static const struct of_fsm_ops *of_ops(struct mlxfw_dev *mlxfw_dev) {
  return ((struct of_run *)mlxfw_dev)->ops;
}

static int of_component_query(struct mlxfw_dev *d, u16 index, u32 *max_size, u8 *align_bits, u16 *max_write_size) {
  return of_ops(d)->component_query(of_ops(d)->ctx, index, max_size, align_bits, max_write_size);
}
static int of_fsm_lock(struct mlxfw_dev *d, u32 *fwhandle) { return of_ops(d)->fsm_lock(of_ops(d)->ctx, fwhandle); }
static int of_fsm_component_update(struct mlxfw_dev *d, u32 fwhandle, u16 index, u32 size) {
  return of_ops(d)->fsm_component_update(of_ops(d)->ctx, fwhandle, index, size);
}
static int of_fsm_block_download(struct mlxfw_dev *d, u32 fwhandle, u8 *data, u16 size, u32 offset) {
  return of_ops(d)->fsm_block_download(of_ops(d)->ctx, fwhandle, data, size, offset);
}
static int of_fsm_component_verify(struct mlxfw_dev *d, u32 fwhandle, u16 index) {
  return of_ops(d)->fsm_component_verify(of_ops(d)->ctx, fwhandle, index);
}
static int of_fsm_activate(struct mlxfw_dev *d, u32 fwhandle) { return of_ops(d)->fsm_activate(of_ops(d)->ctx, fwhandle); }
static int of_fsm_query_state(struct mlxfw_dev *d, u32 fwhandle, enum mlxfw_fsm_state *state,
                              enum mlxfw_fsm_state_err *state_err) {
  int s = 0, e = 0;
  const int err = of_ops(d)->fsm_query_state(of_ops(d)->ctx, fwhandle, &s, &e);
  *state = (enum mlxfw_fsm_state)s;
  *state_err = (enum mlxfw_fsm_state_err)e;
  return err;
}
static void of_fsm_cancel(struct mlxfw_dev *d, u32 fwhandle) { of_ops(d)->fsm_cancel(of_ops(d)->ctx, fwhandle); }
static void of_fsm_release(struct mlxfw_dev *d, u32 fwhandle) { of_ops(d)->fsm_release(of_ops(d)->ctx, fwhandle); }

static const struct mlxfw_dev_ops of_dev_ops = {
    .component_query = of_component_query,
    .fsm_lock = of_fsm_lock,
    .fsm_component_update = of_fsm_component_update,
    .fsm_block_download = of_fsm_block_download,
    .fsm_component_verify = of_fsm_component_verify,
    .fsm_activate = of_fsm_activate,
    .fsm_reactivate = NULL,
    .fsm_query_state = of_fsm_query_state,
    .fsm_cancel = of_fsm_cancel,
    .fsm_release = of_fsm_release,
};

__attribute__((visibility("default"))) void of_mlxfw_flash(const struct of_fsm_ops *ops, const char *psid,
                                                           const uint8_t *data, size_t size,
                                                           struct of_fsm_result *result) {
  static int crc_ready;
  if (!crc_ready) {
    xz_crc32_init();
    crc_ready = 1;
  }
  struct of_run run;
  memset(&run, 0, sizeof run);
  run.ops = ops;
  run.devlink.harness = &run;
  run.mlxfw_dev.ops = &of_dev_ops;
  run.mlxfw_dev.psid = psid;
  run.mlxfw_dev.psid_size = (u16)strlen(psid);
  run.mlxfw_dev.devlink = &run.devlink;
  struct firmware fw = {size, data};
  struct netlink_ext_ack extack = {NULL};
  of_slept_ms = 0;
  result->err = mlxfw_firmware_flash(&run.mlxfw_dev, &fw, &extack);
  snprintf(result->extack, sizeof result->extack, "%s", extack._msg ? extack._msg : "");
  result->slept_ms = of_slept_ms;
}
