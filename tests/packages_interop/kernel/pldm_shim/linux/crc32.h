/* Shim for <linux/crc32.h>: see pldm_shim.h. */
#include "pldm_shim.h"
