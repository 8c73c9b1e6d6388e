/* Shim for <linux/vmalloc.h>: see kernel_shim.h. */
#include "kernel_shim.h"
