/* Shim for <linux/delay.h> (msleep): see kernel_shim.h. */
#include "kernel_shim.h"
