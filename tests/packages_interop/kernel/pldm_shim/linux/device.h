/* Shim for <linux/device.h>: see pldm_shim.h. */
#include "pldm_shim.h"
