/* Shim for <linux/netlink.h>: see kernel_shim.h. */
#include "kernel_shim.h"
