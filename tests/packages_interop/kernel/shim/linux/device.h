/* Shim for <linux/device.h>: the dev_* messages of mlxfw.h go to stderr. Written for openflint. */
#ifndef OPENFLINT_SHIM_DEVICE_H
#define OPENFLINT_SHIM_DEVICE_H
#include "kernel_shim.h"
struct device {
  int unused;
};
#define dev_info(dev, fmt, ...) ((void)(dev), fprintf(stderr, fmt, ##__VA_ARGS__))
#define dev_err(dev, fmt, ...) ((void)(dev), fprintf(stderr, fmt, ##__VA_ARGS__))
#define dev_dbg(dev, fmt, ...) ((void)(dev))
#endif
