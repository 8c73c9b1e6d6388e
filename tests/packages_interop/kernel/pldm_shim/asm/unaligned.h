/* Shim for <asm/unaligned.h>: see pldm_shim.h. */
#include "pldm_shim.h"
