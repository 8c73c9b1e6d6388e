/* Shim for <linux/pci.h>: see pldm_shim.h. */
#include "pldm_shim.h"
