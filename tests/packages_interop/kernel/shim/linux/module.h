/* Shim for <linux/module.h>: see kernel_shim.h. */
#include "kernel_shim.h"
