#include "l1_caches.hpp"

namespace vrb::gpu {

namespace {

constexpr uint64_t KiB = 1024;

struct NvidiaEntry {
    int major, minor;
    L1Cache l1;
};

// Each figure from NVIDIA's tuning guide for its architecture (the "unified shared
// memory/L1/texture cache" sections) and the CUDA C++ Programming Guide's compute
// capability tables.
constexpr NvidiaEntry nvidia[] = {
    {7, 0, {128 * KiB, "128 KiB with shared memory (Volta tuning guide)"}},
    {7, 5, {96 * KiB, "96 KiB with shared memory (Turing tuning guide)"}},
    {8, 0, {192 * KiB, "192 KiB with shared memory (NVIDIA Ampere tuning guide)"}},
    {8, 6, {128 * KiB, "128 KiB with shared memory (NVIDIA Ampere tuning guide)"}},
    {8, 7, {192 * KiB, "192 KiB with shared memory (CUDA programming guide, 8.x)"}},
    {8, 9, {128 * KiB, "128 KiB with shared memory (Ada tuning guide)"}},
    {9, 0, {256 * KiB, "256 KiB with shared memory (Hopper tuning guide)"}},
    {10, 0, {256 * KiB, "256 KiB with shared memory (Blackwell tuning guide)"}},
    {12, 0, {128 * KiB, "128 KiB with shared memory (Blackwell tuning guide)"}},
};

struct AmdEntry {
    std::string_view architecture;
    L1Cache l1;
};

// AMD's CDNA, CDNA 2 and CDNA 3 architecture whitepapers.
constexpr AmdEntry amd[] = {
    {"gfx908", {16 * KiB, "16 KiB vector L1 (AMD CDNA whitepaper)"}},
    {"gfx90a", {16 * KiB, "16 KiB vector L1 (AMD CDNA 2 whitepaper)"}},
    {"gfx942", {32 * KiB, "32 KiB vector L1 (AMD CDNA 3 whitepaper)"}},
};

} // namespace

L1Cache nvidia_l1(int major, int minor)
{
    for (const NvidiaEntry &e : nvidia)
        if (e.major == major && e.minor == minor) return e.l1;
    return {};
}

uint32_t amd_l2_shared_by(std::string_view architecture, uint32_t compute_units)
{
    constexpr uint32_t cdna3_xcd_units = 38;
    const std::string_view name = architecture.substr(0, architecture.find(':'));
    const bool cdna3 = name == "gfx940" || name == "gfx941" || name == "gfx942";
    if (!cdna3) return compute_units;
    return compute_units > 0 && compute_units % cdna3_xcd_units == 0 ? cdna3_xcd_units : 0;
}

L1Cache amd_l1(std::string_view architecture)
{
    // HIP appends the target's features: "gfx90a:sramecc+:xnack-".
    const std::string_view name = architecture.substr(0, architecture.find(':'));
    for (const AmdEntry &e : amd)
        if (e.architecture == name) return e.l1;
    return {};
}

} // namespace vrb::gpu
