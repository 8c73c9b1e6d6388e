/* Shim for <linux/kernel.h>: see pldm_shim.h. */
#include "pldm_shim.h"
