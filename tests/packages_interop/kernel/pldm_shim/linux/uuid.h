/* Shim for <linux/uuid.h>: see pldm_shim.h. */
#include "pldm_shim.h"
