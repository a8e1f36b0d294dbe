// A stand-in for libnvidia-ml.so.1: the NVML functions vrambench calls, exported under
// their own names with NVML's calling conventions and error codes, so the telemetry
// code is tested through the same run-time loading path (VRAMBENCH_NVML_LIBRARY) as
// the real library. One card; its figures are fixed, its faults chosen by environment:
//
//   NVML_STANDIN_ADDRESS  the PCI address of its one card (default 0000:10:00.0); any
//                         other is NVML_ERROR_NOT_FOUND
//   NVML_STANDIN_REASONS  the clock event (throttle) reasons, a hex mask (default 0)
//   NVML_STANDIN_FAIL     names of functions that answer NVML_ERROR_NOT_SUPPORTED,
//                         separated by commas
//   NVML_STANDIN_INIT     "fail": nvmlInit_v2 answers NVML_ERROR_DRIVER_NOT_LOADED
//
// Figures: SM clock 1980 MHz, memory clock 2619 MHz, power 450 W of a 700 W limit,
// 62 C, 97 % busy, 41 % memory busy, PCIe Gen5 x16.
#include <cstdlib>
#include <cstring>
#include <string>

// NVML's own handle type, so a call through the caller's function pointer type matches
// the definition (UBSan's function check compares them).
struct nvmlDevice_st {
    int tag;
};

namespace {

constexpr int kSuccess = 0, kInvalidArgument = 2, kNotSupported = 3, kNotFound = 6, kDriverNotLoaded = 9;

nvmlDevice_st the_card{1};

bool fails(const char *function)
{
    const char *list = std::getenv("NVML_STANDIN_FAIL");
    if (!list) return false;
    const std::string all = std::string(",") + list + ",";
    return all.find(std::string(",") + function + ",") != std::string::npos;
}

std::string address()
{
    const char *a = std::getenv("NVML_STANDIN_ADDRESS");
    return a && *a ? a : "0000:10:00.0";
}

bool ours(const nvmlDevice_st *device)
{
    return device == &the_card;
}

} // namespace

extern "C" {

struct nvmlUtilization_st {
    unsigned int gpu, memory;
};

int nvmlInit_v2()
{
    const char *init = std::getenv("NVML_STANDIN_INIT");
    return init && std::strcmp(init, "fail") == 0 ? kDriverNotLoaded : kSuccess;
}

int nvmlShutdown()
{
    return kSuccess;
}

const char *nvmlErrorString(int code)
{
    switch (code) {
    case kSuccess: return "Success";
    case kInvalidArgument: return "Invalid Argument";
    case kNotSupported: return "Not Supported";
    case kNotFound: return "Not Found";
    case kDriverNotLoaded: return "Driver Not Loaded";
    default: return "Unknown Error";
    }
}

int nvmlDeviceGetHandleByPciBusId_v2(const char *bus_id, nvmlDevice_st **device)
{
    if (!bus_id || !device) return kInvalidArgument;
    if (address() != bus_id) return kNotFound;
    *device = &the_card;
    return kSuccess;
}

#define STANDIN_CHECK(name)                                                                                            \
    if (!ours(device) || !out) return kInvalidArgument;                                                                \
    if (fails(name)) return kNotSupported

int nvmlDeviceGetClockInfo(nvmlDevice_st *device, unsigned type, unsigned *out)
{
    STANDIN_CHECK("nvmlDeviceGetClockInfo");
    if (type == 1)
        *out = 1980; // SM
    else if (type == 2)
        *out = 2619; // memory
    else if (type == 0)
        *out = 1980; // graphics
    else
        return kInvalidArgument;
    return kSuccess;
}

int nvmlDeviceGetPowerUsage(nvmlDevice_st *device, unsigned *out)
{
    STANDIN_CHECK("nvmlDeviceGetPowerUsage");
    *out = 450000; // milliwatts
    return kSuccess;
}

int nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_st *device, unsigned *out)
{
    STANDIN_CHECK("nvmlDeviceGetEnforcedPowerLimit");
    *out = 700000;
    return kSuccess;
}

int nvmlDeviceGetTemperature(nvmlDevice_st *device, unsigned sensor, unsigned *out)
{
    STANDIN_CHECK("nvmlDeviceGetTemperature");
    if (sensor != 0) return kInvalidArgument;
    *out = 62;
    return kSuccess;
}

int nvmlDeviceGetUtilizationRates(nvmlDevice_st *device, nvmlUtilization_st *out)
{
    STANDIN_CHECK("nvmlDeviceGetUtilizationRates");
    *out = {97, 41};
    return kSuccess;
}

int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_st *device, unsigned long long *out)
{
    STANDIN_CHECK("nvmlDeviceGetCurrentClocksEventReasons");
    const char *mask = std::getenv("NVML_STANDIN_REASONS");
    *out = mask ? std::strtoull(mask, nullptr, 16) : 0;
    return kSuccess;
}

int nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_st *device, unsigned *out)
{
    STANDIN_CHECK("nvmlDeviceGetCurrPcieLinkGeneration");
    *out = 5;
    return kSuccess;
}

int nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_st *device, unsigned *out)
{
    STANDIN_CHECK("nvmlDeviceGetCurrPcieLinkWidth");
    *out = 16;
    return kSuccess;
}

} // extern "C"
