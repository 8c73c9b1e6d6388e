/* Shim for <linux/list.h>: see pldm_shim.h. */
#include "pldm_shim.h"
