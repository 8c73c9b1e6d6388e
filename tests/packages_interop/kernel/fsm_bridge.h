/* fsm_bridge.h: the C interface between the kernel's flash state machine (mlxfw_fsm.c, built from
 * linux-source-6.1 at test time into a shared library with fsm_harness.c) and the test, which
 * answers each mlxfw_dev_ops call through openflint's register access to a simulated device.
 * Plain C types only, so the C++ test needs none of the kernel's headers. Written for openflint. */
#ifndef OPENFLINT_FSM_BRIDGE_H
#define OPENFLINT_FSM_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One callback per mlxfw_dev_ops member the mlx5 driver fills in (fsm_reactivate stays NULL: the
 * simulator has no MIRC register, and the kernel then skips the step). Return 0 or a negative
 * errno, as the driver's ops do. `state`/`state_err` are the kernel's enum mlxfw_fsm_state and
 * enum mlxfw_fsm_state_err values. */
struct of_fsm_ops {
  void *ctx;
  int (*component_query)(void *ctx, uint16_t component_index, uint32_t *max_size, uint8_t *align_bits,
                         uint16_t *max_write_size);
  int (*fsm_lock)(void *ctx, uint32_t *fwhandle);
  int (*fsm_component_update)(void *ctx, uint32_t fwhandle, uint16_t component_index, uint32_t size);
  int (*fsm_block_download)(void *ctx, uint32_t fwhandle, const uint8_t *data, uint16_t size, uint32_t offset);
  int (*fsm_component_verify)(void *ctx, uint32_t fwhandle, uint16_t component_index);
  int (*fsm_activate)(void *ctx, uint32_t fwhandle);
  int (*fsm_query_state)(void *ctx, uint32_t fwhandle, int *state, int *state_err);
  void (*fsm_cancel)(void *ctx, uint32_t fwhandle);
  void (*fsm_release)(void *ctx, uint32_t fwhandle);
  /* devlink_flash_update_status_notify */
  void (*status)(void *ctx, const char *msg, const char *component, unsigned long done, unsigned long total);
};

/* What one run of the kernel's mlxfw_firmware_flash() returned and said. */
struct of_fsm_result {
  int err;                    /* its return: 0 or a negative errno */
  char extack[256];           /* the netlink message (NL_SET_ERR_MSG_MOD), empty when none */
  unsigned long slept_ms;     /* msleep() time it spent polling (virtual: nothing really sleeps) */
};

/* mlxfw_firmware_flash() for a device of `psid` on the package `data`. */
typedef void (*of_mlxfw_flash_fn)(const struct of_fsm_ops *ops, const char *psid, const uint8_t *data, size_t size,
                                  struct of_fsm_result *result);

#ifdef __cplusplus
}
#endif

#endif
