// A stand-in for libnvidia-ml.so.1: the NVML functions vrambench calls, exported under
// their own names with NVML's calling conventions and error codes, so the telemetry
// code is tested through the same run-time loading path (VRAMBENCH_NVML_LIBRARY) as
// the real library. One card (three with NVML_STANDIN_NVLINK); its figures are fixed,
// its faults chosen by environment:
//
//   NVML_STANDIN_ADDRESS  the PCI address of its first card (default 0000:10:00.0); any
//                         other is NVML_ERROR_NOT_FOUND
//   NVML_STANDIN_REASONS  the clock event (throttle) reasons, a hex mask (default 0)
//   NVML_STANDIN_FAIL     names of functions that answer NVML_ERROR_NOT_SUPPORTED,
//                         separated by commas
//   NVML_STANDIN_INIT     "fail": nvmlInit_v2 answers NVML_ERROR_DRIVER_NOT_LOADED
//   NVML_STANDIN_NVLINK   unset: the card is PCIe-only, its NVLink functions answer
//                         NVML_ERROR_NOT_SUPPORTED. "pair": an H200 pair, the first card
//                         and a second at 0000:11:00.0 joined by 18 NVLink 4 links at
//                         26562 MB/s, and a PCIe-only third card at 0000:12:00.0.
//                         "garbage": the pair, but the first card's link 0 answers a
//                         state that is neither up nor down, link 1 a version of 4e9,
//                         link 2 a bus id that is no PCI address, and its speed field
//                         a double.
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
constexpr unsigned kLinks = 18;

nvmlDevice_st the_card{1}, the_peer{2}, the_pcie_card{3};

std::string nvlink_mode()
{
    const char *mode = std::getenv("NVML_STANDIN_NVLINK");
    return mode ? mode : "";
}

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
    return device == &the_card || (!nvlink_mode().empty() && (device == &the_peer || device == &the_pcie_card));
}

// The cards of the pair, whose NVLink functions answer; the third card and a PCIe-only
// stand-in answer NOT_SUPPORTED.
bool has_nvlink(const nvmlDevice_st *device)
{
    return !nvlink_mode().empty() && (device == &the_card || device == &the_peer);
}

bool garbage(const nvmlDevice_st *device)
{
    return nvlink_mode() == "garbage" && device == &the_card;
}

} // namespace

extern "C" {

struct nvmlUtilization_st {
    unsigned int gpu, memory;
};

// nvml.h's names and layouts, so the caller's function types match these definitions.
enum nvmlEnableState_enum : int { NVML_FEATURE_DISABLED = 0, NVML_FEATURE_ENABLED = 1 };
enum nvmlIntNvLinkDeviceType_enum : int { NVML_NVLINK_DEVICE_TYPE_GPU = 0, NVML_NVLINK_DEVICE_TYPE_UNKNOWN = 0xff };
struct nvmlPciInfo_st {
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
};
union nvmlValue_st {
    double dVal;
    int siVal;
    unsigned int uiVal;
    unsigned long ulVal;
    unsigned long long ullVal;
    signed long long sllVal;
    unsigned short usVal;
};
struct nvmlFieldValue_st {
    unsigned int fieldId, scopeId;
    long long timestamp, latencyUsec;
    unsigned int valueType;
    int nvmlReturn;
    nvmlValue_st value;
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
    if (address() == bus_id)
        *device = &the_card;
    else if (!nvlink_mode().empty() && std::strcmp(bus_id, "0000:11:00.0") == 0)
        *device = &the_peer;
    else if (!nvlink_mode().empty() && std::strcmp(bus_id, "0000:12:00.0") == 0)
        *device = &the_pcie_card;
    else
        return kNotFound;
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

#define STANDIN_NVLINK_CHECK(name)                                                                                     \
    STANDIN_CHECK(name);                                                                                               \
    if (!has_nvlink(device)) return kNotSupported;                                                                     \
    if (link >= kLinks) return kInvalidArgument

int nvmlDeviceGetNvLinkState(nvmlDevice_st *device, unsigned link, nvmlEnableState_enum *out)
{
    STANDIN_NVLINK_CHECK("nvmlDeviceGetNvLinkState");
    *out = garbage(device) && link == 0 ? static_cast<nvmlEnableState_enum>(7) : NVML_FEATURE_ENABLED;
    return kSuccess;
}

int nvmlDeviceGetNvLinkVersion(nvmlDevice_st *device, unsigned link, unsigned *out)
{
    STANDIN_NVLINK_CHECK("nvmlDeviceGetNvLinkVersion");
    *out = garbage(device) && link == 1 ? 4000000000u : 4;
    return kSuccess;
}

int nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_st *device, unsigned link, nvmlPciInfo_st *out)
{
    STANDIN_NVLINK_CHECK("nvmlDeviceGetNvLinkRemotePciInfo_v2");
    *out = {};
    // NVML writes the bus id with an eight-digit domain, in capitals.
    const char *other = device == &the_card ? "00000000:11:00.0" : "00000000:10:00.0";
    std::strncpy(out->busId, garbage(device) && link == 2 ? "zz:\x01-not-a-bus" : other, sizeof out->busId - 1);
    out->bus = device == &the_card ? 0x11 : 0x10;
    return kSuccess;
}

int nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_st *device, unsigned link, nvmlIntNvLinkDeviceType_enum *out)
{
    STANDIN_NVLINK_CHECK("nvmlDeviceGetNvLinkRemoteDeviceType");
    *out = NVML_NVLINK_DEVICE_TYPE_GPU;
    return kSuccess;
}

int nvmlDeviceGetFieldValues(nvmlDevice_st *device, int count, nvmlFieldValue_st *values)
{
    if (!ours(device) || !values || count < 0) return kInvalidArgument;
    if (fails("nvmlDeviceGetFieldValues")) return kNotSupported;
    for (int i = 0; i < count; ++i) {
        nvmlFieldValue_st &v = values[i];
        if (v.fieldId != 90 || !has_nvlink(device)) { // NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON
            v.nvmlReturn = kNotSupported;
            continue;
        }
        v.nvmlReturn = kSuccess;
        if (garbage(device)) {
            v.valueType = 0; // NVML_VALUE_TYPE_DOUBLE
            v.value.dVal = 26562.5;
        } else {
            v.valueType = 1; // NVML_VALUE_TYPE_UNSIGNED_INT
            v.value.uiVal = 26562;
        }
    }
    return kSuccess;
}

} // extern "C"
