/* Shim for <linux/firmware.h>: see kernel_shim.h. */
#include "kernel_shim.h"
