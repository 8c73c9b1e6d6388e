/* Shim for <linux/firmware.h>: see pldm_shim.h. */
#include "pldm_shim.h"
