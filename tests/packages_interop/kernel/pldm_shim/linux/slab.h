/* Shim for <linux/slab.h>: see pldm_shim.h. */
#include "pldm_shim.h"
