/* Shim for the mlxfw driver's mlxfw.h (devlink glue the MFA2 parser does not use): see kernel_shim.h. */
#include "kernel_shim.h"
