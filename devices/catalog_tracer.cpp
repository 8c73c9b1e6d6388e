// catalog_tracer: the firmware tracer's mask classes per family. Facts: mstfwtrace 4.21's device
// table (fw-trace-and-fwctl.md A4); the ICMD layout comment and the man page name bits 8 and 9
// PHY_EYE_OPN and PHY_GENERAL/PHY_COMMON, the tool itself LIBFHI and PHY_COMMON, which we follow.
#include <array>

#include "devices/FirmwareTracerInfo.h"

namespace openflint {
namespace {

constexpr std::array kHcaTraceClasses{
    TraceClass{"DEBUG_INIT", 0},   TraceClass{"INIT", 1},        TraceClass{"ICM", 2},
    TraceClass{"ICM_FREE_LIST", 3}, TraceClass{"HOST_MNG", 4},   TraceClass{"CMD_IF", 5},
    TraceClass{"PHY_IB", 6},       TraceClass{"PHY_RX_ADAP", 7}, TraceClass{"LIBFHI", 8},
    TraceClass{"PHY_COMMON", 9},   TraceClass{"PHY_MANAGER", 10}, TraceClass{"PWR", 11},
    TraceClass{"FLR", 12},         TraceClass{"ICM_ACCESS", 13}, TraceClass{"MAD", 14},
    TraceClass{"RXT_CHECKS", 15},  TraceClass{"I2C", 16},        TraceClass{"TRANSPORT", 17},
    TraceClass{"FW_LL", 18},       TraceClass{"RX_ERRORS", 19},  TraceClass{"CMD_DRIVER", 20},
    TraceClass{"PROFILING", 21},   TraceClass{"MANAGEMENT", 22}, TraceClass{"FLASH", 23},
    TraceClass{"STEERING", 24},    TraceClass{"IFARM", 25},      TraceClass{"ICMD", 26},
    TraceClass{"PCI", 27},         TraceClass{"DC_CLEANUP", 28}, TraceClass{"PHY_ETH", 29},
    TraceClass{"VIRT", 30},
};

constexpr std::array kSwitchTraceClasses{TraceClass{"class1", 0}, TraceClass{"class2", 1}};

}  // namespace

const FirmwareTracerInfo kHcaFirmwareTracer{.classes = kHcaTraceClasses, .host_memory_mode = true,
                                             .driver = "mlx5_core"};
const FirmwareTracerInfo kSwitchFirmwareTracer{.classes = kSwitchTraceClasses, .host_memory_mode = false};

}  // namespace openflint
