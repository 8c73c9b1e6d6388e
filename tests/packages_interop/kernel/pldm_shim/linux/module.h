/* Shim for <linux/module.h>: see pldm_shim.h. */
#include "pldm_shim.h"
