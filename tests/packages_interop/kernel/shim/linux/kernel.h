/* Shim for <linux/kernel.h>: see kernel_shim.h. */
#include "kernel_shim.h"
