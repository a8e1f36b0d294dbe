// NVLink through NVML, opened at run time: for each link of the card, whether it is up,
// its version, what is at its far end (a GPU or an NVSwitch, and its PCI address), and
// the speed NVML gives for the card's active links.
#include "nvml_library.hpp"

#include <vrambench/core/card/fabric.hpp>

#include <fmt/format.h>

#include <cctype>
#include <cstdio>

// nvml.h's own type names, so the function types match the library's (UBSan checks them).
// Held in an int, as a C enum is: a driver's answer outside the named values (a newer
// state, garbage) is read and reported, never a value the type cannot hold.
enum nvmlEnableState_enum : int { NVML_FEATURE_DISABLED = 0, NVML_FEATURE_ENABLED = 1 };
enum nvmlIntNvLinkDeviceType_enum : int {
    NVML_NVLINK_DEVICE_TYPE_GPU = 0,
    NVML_NVLINK_DEVICE_TYPE_IBMNPU = 1,
    NVML_NVLINK_DEVICE_TYPE_SWITCH = 2,
    NVML_NVLINK_DEVICE_TYPE_UNKNOWN = 0xff
};
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
    unsigned int valueType; // nvmlValueType_t
    int nvmlReturn;
    nvmlValue_st value;
};

namespace vrb {

namespace {

// NVML_NVLINK_MAX_LINKS in nvml.h since the H100's 18; a card with fewer answers
// NVML_ERROR_INVALID_ARGUMENT (or NOT_SUPPORTED) past its last.
constexpr uint32_t kMaxLinks = 18;
// NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON: the speed of the card's active links in MB/s
// (10^6 bytes) per direction; NVML_VALUE_TYPE_UNSIGNED_INT.
constexpr unsigned kFieldSpeedCommon = 90, kValueUnsignedInt = 1;

// "00000000:19:00.0" or "0000:19:00.0", in any case, as NVML writes a bus id: the same
// address as sysfs writes it ("0000:19:00.0"), or empty for anything else.
std::string normal_address(const char *text, std::size_t size)
{
    const std::string s(text, strnlen(text, size));
    unsigned domain = 0, bus = 0, device = 0, function = 0;
    char tail = 0;
    if (std::sscanf(s.c_str(), "%x:%x:%x.%x%c", &domain, &bus, &device, &function, &tail) != 4) return {};
    if (bus > 0xff || device > 0x1f || function > 7 || domain > 0xffff) return {};
    return fmt::format("{:04x}:{:02x}:{:02x}.{:x}", domain, bus, device, function);
}

std::string bus_id_text(const char *text, std::size_t size)
{
    std::string s;
    for (std::size_t i = 0; i < size && text[i]; ++i)
        s += std::isprint(static_cast<unsigned char>(text[i])) ? text[i] : '?';
    return s.substr(0, 40);
}

class NvlinkReader {
  public:
    explicit NvlinkReader(const nvml::Session &session) : library_(session.library()), device_(session.device()) {}

    FabricReading read(const std::string &address)
    {
        using state_fn = nvml::Return (*)(nvml::Device, unsigned, nvmlEnableState_enum *);
        const auto state = library_.symbol<state_fn>("nvmlDeviceGetNvLinkState");
        if (!state) return none("nvml: the library has no nvmlDeviceGetNvLinkState");
        Fabric f;
        f.kind = "nvlink";
        f.source = "nvml";
        f.address = address;
        const std::optional<double> speed = common_speed(f);
        for (uint32_t link = 0; link < kMaxLinks; ++link) {
            nvmlEnableState_enum active = NVML_FEATURE_DISABLED;
            const nvml::Return code = state(device_, link, &active);
            if (code != nvml::kSuccess) {
                // The first link's answer is the card's: a PCIe-only card has no NVLink.
                if (link == 0)
                    return none(fmt::format("nvml: nvmlDeviceGetNvLinkState failed: {}", library_.words(code)));
                break; // past the card's last link
            }
            if (active == NVML_FEATURE_DISABLED) {
                ++f.inactive_links;
                continue;
            }
            if (active != NVML_FEATURE_ENABLED) {
                f.unknown[fmt::format("link {}", link)] =
                    fmt::format("nvml: nvmlDeviceGetNvLinkState answered {}, neither enabled nor disabled",
                                static_cast<int>(active));
                continue;
            }
            f.links.push_back(read_link(link, speed, f.unknown));
        }
        f.peers = peers_of(f.links);
        return {std::move(f), {}};
    }

  private:
    FabricReading none(std::string why) { return {std::nullopt, "not available: " + why}; }

    std::optional<double> common_speed(Fabric &f)
    {
        using fields_fn = nvml::Return (*)(nvml::Device, int, nvmlFieldValue_st *);
        const auto fields = library_.symbol<fields_fn>("nvmlDeviceGetFieldValues");
        if (!fields) {
            f.unknown["speed"] = "nvml: the library has no nvmlDeviceGetFieldValues";
            return std::nullopt;
        }
        nvmlFieldValue_st value{};
        value.fieldId = kFieldSpeedCommon;
        nvml::Return code = fields(device_, 1, &value);
        if (code == nvml::kSuccess) code = value.nvmlReturn;
        if (code != nvml::kSuccess) {
            f.unknown["speed"] = fmt::format("nvml: the NVLink speed field failed: {}", library_.words(code));
            return std::nullopt;
        }
        // A link's speed in MB/s: above 0 and below 10 TB/s, or it is not one.
        if (value.valueType != kValueUnsignedInt) {
            f.unknown["speed"] = fmt::format("nvml: the NVLink speed field answered a value of type {}, not the "
                                             "unsigned int of a speed in MB/s",
                                             value.valueType);
            return std::nullopt;
        }
        if (value.value.uiVal == 0 || value.value.uiVal > 10'000'000) {
            f.unknown["speed"] =
                fmt::format("nvml: the NVLink speed field answered {} MB/s, not a link's speed", value.value.uiVal);
            return std::nullopt;
        }
        return value.value.uiVal / 1000.0;
    }

    FabricLink read_link(uint32_t index, std::optional<double> speed, std::map<std::string, std::string> &unknown)
    {
        FabricLink l;
        l.index = index;
        l.speed_gb_per_s = speed;
        const std::string field = fmt::format("link {}", index);
        unsigned version = 0;
        using version_fn = nvml::Return (*)(nvml::Device, unsigned, unsigned *);
        if (call<version_fn>(unknown, field + ".version", "nvmlDeviceGetNvLinkVersion", device_, index, &version)) {
            if (version >= 1 && version <= 100)
                l.version = version;
            else
                unknown[field + ".version"] =
                    fmt::format("nvml: nvmlDeviceGetNvLinkVersion answered {}, which is no NVLink version", version);
        }
        nvmlPciInfo_st pci{};
        using pci_fn = nvml::Return (*)(nvml::Device, unsigned, nvmlPciInfo_st *);
        if (call<pci_fn>(unknown, field + ".remote", "nvmlDeviceGetNvLinkRemotePciInfo_v2", device_, index, &pci)) {
            l.remote_address = normal_address(pci.busId, sizeof pci.busId);
            if (l.remote_address.empty())
                unknown[field + ".remote"] =
                    fmt::format("nvml: nvmlDeviceGetNvLinkRemotePciInfo_v2 answered '{}', not a PCI address",
                                bus_id_text(pci.busId, sizeof pci.busId));
        }
        using type_fn = nvml::Return (*)(nvml::Device, unsigned, nvmlIntNvLinkDeviceType_enum *);
        // Older libraries lack the far end's type; the address is still worth having.
        if (library_.symbol<type_fn>("nvmlDeviceGetNvLinkRemoteDeviceType")) {
            nvmlIntNvLinkDeviceType_enum type = NVML_NVLINK_DEVICE_TYPE_UNKNOWN;
            if (call<type_fn>(unknown, field + ".remote_type", "nvmlDeviceGetNvLinkRemoteDeviceType", device_, index,
                              &type))
                l.remote_type = type == NVML_NVLINK_DEVICE_TYPE_GPU      ? "gpu"
                                : type == NVML_NVLINK_DEVICE_TYPE_SWITCH ? "nvswitch"
                                : type == NVML_NVLINK_DEVICE_TYPE_IBMNPU ? "ibm-npu"
                                                                         : "";
        }
        return l;
    }

    template <typename F, typename... Args>
    bool call(std::map<std::string, std::string> &unknown, const std::string &field, const char *function, Args... args)
    {
        const F f = library_.symbol<F>(function);
        if (!f) {
            unknown[field] = fmt::format("nvml: the library has no {}", function);
            return false;
        }
        const nvml::Return code = f(args...);
        if (code == nvml::kSuccess) return true;
        unknown[field] = fmt::format("nvml: {} failed: {}", function, library_.words(code));
        return false;
    }

    const nvml::Library &library_;
    nvml::Device device_;
};

} // namespace

FabricReading read_nvlink(const std::string &address)
{
    const nvml::Session session(address);
    if (!session.device()) return {std::nullopt, "not available: " + session.why()};
    return NvlinkReader(session).read(address);
}

} // namespace vrb
