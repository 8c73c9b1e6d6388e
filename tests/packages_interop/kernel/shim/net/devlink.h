/* Shim for <net/devlink.h>: the flash status notifications mlxfw_fsm.c sends go to the harness
 * (fsm_harness.c), which hands them to the test. Written for openflint. */
#ifndef OPENFLINT_SHIM_DEVLINK_H
#define OPENFLINT_SHIM_DEVLINK_H
#include <linux/device.h>
struct devlink {
  struct device dev;
  void *harness; /* fsm_harness.c's run */
};
static inline struct device *devlink_to_dev(struct devlink *devlink) { return &devlink->dev; }
void devlink_flash_update_status_notify(struct devlink *devlink, const char *status_msg, const char *component,
                                        unsigned long done, unsigned long total);
#endif
