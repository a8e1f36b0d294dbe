#include "options.hpp"

#include <vrambench/plugin_support.hpp>

#include <bit>
#include <cstdlib>
#include <string>

namespace vrb::opencl {

namespace {

uint64_t number(const char *name, uint64_t low, uint64_t high, bool power_of_two)
{
    const char *text = std::getenv(name);
    if (!text || !*text) return 0;
    char *end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    const bool digits = *end == '\0' && std::string(text).find_first_not_of("0123456789") == std::string::npos;
    if (!digits || value < low || value > high || (power_of_two && !std::has_single_bit(uint64_t(value))))
        plugin::fail(VRB_ERROR_INVALID_ARGUMENT, std::string(name) + "=" + text + " must be " +
                                                     (power_of_two ? "a power of two " : "a whole number ") + "from " +
                                                     std::to_string(low) + " to " + std::to_string(high));
    return value;
}

} // namespace

Options read_options()
{
    Options options;
    options.segment_bytes = number("VRAMBENCH_OPENCL_SEGMENT_BYTES", 4096, uint64_t(1) << 62, false);
    options.local_size = static_cast<uint32_t>(number("VRAMBENCH_OPENCL_LOCAL_SIZE", 1, 1024, true));
    options.max_groups = static_cast<uint32_t>(number("VRAMBENCH_OPENCL_GROUPS", 1, 1u << 20, false));
    if (const char *kernels = std::getenv("VRAMBENCH_OPENCL_KERNELS"); kernels && *kernels) {
        const std::string k = kernels;
        if (k == "gpu")
            options.kernels = Kernels::Gpu;
        else if (k == "cpu")
            options.kernels = Kernels::Cpu;
        else
            plugin::fail(VRB_ERROR_INVALID_ARGUMENT, "VRAMBENCH_OPENCL_KERNELS=" + k + " must be gpu or cpu");
    }
    return options;
}

} // namespace vrb::opencl
