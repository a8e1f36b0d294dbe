#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/core/planning/device_table.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb {

namespace {

constexpr uint32_t nvidia = 0x10de, amd = 0x1002, intel = 0x8086;

// Bandwidth and memory as the datasheets quote them; the bus width and per-pin rate
// give the same figure (rate x bits / 8) within the datasheet's rounding. A compute
// unit's L1 (last field) is NVIDIA's unified L1 and shared memory per SM from the
// architecture's tuning guide or whitepaper, and the vector L1 per CU from AMD's CDNA 2,
// 3 and 4 documents; RDNA and Xe entries leave it out (their first levels are not one
// cache per unit of the kind the runtimes count). PCI ids are those of the pci.ids
// database (pciutils/pciids), checked against the supported-GPU list of NVIDIA's Linux
// driver README (595.45.04) and libdrm's amdgpu.ids.
constexpr CardSpec cards[] = {
    // NVIDIA H200 Tensor Core GPU datasheet (H200 SXM: 141 GB HBM3e, 4.8 TB/s);
    // NVIDIA H100 Tensor Core GPU Architecture whitepaper (GH100: 50 MB L2, 132 SMs on SXM).
    {"NVIDIA H200 SXM 141GB", nvidia, 0x2335, 141, 132, MemoryType::hbm3e, 6144, 6.25, 4800, 50 * MiB, "L2", true,
     "NVIDIA H200 Tensor Core GPU datasheet; NVIDIA H100 Tensor Core GPU Architecture whitepaper (L2)", 256 * KiB},
    // NVIDIA H200 Tensor Core GPU datasheet (H200 NVL: 141 GB HBM3e, 4.8 TB/s, the same
    // six stacks as the SXM); 10de:233b is "GH100 [H200 NVL]" in pci.ids and "NVIDIA H200
    // NVL" in the driver README. 132 SMs as the CUDA runtime reports them.
    {"NVIDIA H200 NVL", nvidia, 0x233b, 141, 132, MemoryType::hbm3e, 6144, 6.25, 4800, 50 * MiB, "L2", true,
     "NVIDIA H200 Tensor Core GPU datasheet; NVIDIA H100 Tensor Core GPU Architecture whitepaper (L2)", 256 * KiB},
    // NVIDIA GH200 Grace Hopper Superchip datasheet: 96 GB HBM3 at up to 4 TB/s, or 144 GB
    // HBM3e at up to 4.9 TB/s, on the 132-SM Hopper GPU; six 1024-bit stacks either way
    // (5.2 and 6.4 Gbit/s per pin). The two have ids of their own: 10de:2342 "GH200
    // 120GB / 480GB" (named for the Grace side's LPDDR5X) and 10de:2348 "GH200 144G
    // HBM3e" (pci.ids, driver README). NVIDIA gives no L2 figure for GH200; the Hopper
    // GPU's is the H100 whitepaper's 50 MB (a runtime reporting a larger one wins).
    {"NVIDIA GH200 96GB HBM3", nvidia, 0x2342, 96, 132, MemoryType::hbm3, 6144, 5.2, 4000, 50 * MiB, "L2", true,
     "NVIDIA GH200 Grace Hopper Superchip datasheet; NVIDIA H100 Tensor Core GPU Architecture whitepaper (L2)",
     256 * KiB},
    {"NVIDIA GH200 144GB HBM3e", nvidia, 0x2348, 144, 132, MemoryType::hbm3e, 6144, 6.4, 4900, 50 * MiB, "L2", true,
     "NVIDIA GH200 Grace Hopper Superchip datasheet; NVIDIA H100 Tensor Core GPU Architecture whitepaper (L2)",
     256 * KiB},
    // NVIDIA DGX B200 datasheet: 1,440 GB and 64 TB/s over eight GPUs, so 180 GB and
    // 8 TB/s each; the Blackwell tuning guide: up to 180 GB, 126 MB of L2, 256 KB of
    // unified L1 and shared memory per SM (compute capability 10.0). 148 SMs as CUDA
    // reports them. The 8 TB/s is eight 1024-bit stacks at 7.8 Gbit/s; recent drivers
    // report 7680 bits at 3996 MHz (7.67 TB/s), 4 % under the datasheet, which stays
    // the figure of record. 10de:2901 is "GB100 [B200]" (pci.ids, driver README).
    {"NVIDIA B200", nvidia, 0x2901, 180, 148, MemoryType::hbm3e, 8192, 7.8, 8000, 126 * MiB, "L2", true,
     "NVIDIA DGX B200 datasheet; NVIDIA Blackwell tuning guide (L2, L1)", 256 * KiB},
    // NVIDIA H100 Tensor Core GPU datasheet (H100 SXM: 80 GB HBM3, 3.35 TB/s); the
    // architecture whitepaper for the 5120-bit bus and 50 MB L2.
    {"NVIDIA H100 SXM5 80GB", nvidia, 0x2330, 80, 132, MemoryType::hbm3, 5120, 5.23, 3350, 50 * MiB, "L2", true,
     "NVIDIA H100 Tensor Core GPU datasheet; NVIDIA H100 Tensor Core GPU Architecture whitepaper", 256 * KiB},
    // NVIDIA H100 Tensor Core GPU datasheet (H100 PCIe: 80 GB HBM2e, 2 TB/s, 114 SMs).
    {"NVIDIA H100 PCIe 80GB", nvidia, 0x2331, 80, 114, MemoryType::hbm2e, 5120, 3.2, 2000, 50 * MiB, "L2", true,
     "NVIDIA H100 Tensor Core GPU datasheet; NVIDIA H100 Tensor Core GPU Architecture whitepaper", 256 * KiB},
    // NVIDIA A100 Tensor Core GPU datasheet (40 GB HBM2: 1555 GB/s; 80 GB HBM2e: 2039 GB/s
    // SXM4, 1935 GB/s PCIe); NVIDIA A100 Tensor Core GPU Architecture whitepaper (40 MB L2).
    {"NVIDIA A100 SXM4 40GB", nvidia, 0x20b0, 40, 108, MemoryType::hbm2, 5120, 2.43, 1555, 40 * MiB, "L2", true,
     "NVIDIA A100 Tensor Core GPU datasheet; NVIDIA A100 Tensor Core GPU Architecture whitepaper", 192 * KiB},
    {"NVIDIA A100 PCIe 40GB", nvidia, 0x20b1, 40, 108, MemoryType::hbm2, 5120, 2.43, 1555, 40 * MiB, "L2", true,
     "NVIDIA A100 Tensor Core GPU datasheet; NVIDIA A100 Tensor Core GPU Architecture whitepaper", 192 * KiB},
    {"NVIDIA A100 PCIe 40GB", nvidia, 0x20f1, 40, 108, MemoryType::hbm2, 5120, 2.43, 1555, 40 * MiB, "L2", true,
     "NVIDIA A100 Tensor Core GPU datasheet; NVIDIA A100 Tensor Core GPU Architecture whitepaper", 192 * KiB},
    {"NVIDIA A100 SXM4 80GB", nvidia, 0x20b2, 80, 108, MemoryType::hbm2e, 5120, 3.19, 2039, 40 * MiB, "L2", true,
     "NVIDIA A100 Tensor Core GPU datasheet; NVIDIA A100 Tensor Core GPU Architecture whitepaper", 192 * KiB},
    {"NVIDIA A100 PCIe 80GB", nvidia, 0x20b5, 80, 108, MemoryType::hbm2e, 5120, 3.02, 1935, 40 * MiB, "L2", true,
     "NVIDIA A100 Tensor Core GPU datasheet; NVIDIA A100 Tensor Core GPU Architecture whitepaper", 192 * KiB},
    // NVIDIA L40S datasheet (48 GB GDDR6, 864 GB/s); NVIDIA Ada GPU Architecture
    // whitepaper (AD102: 96 MB L2).
    {"NVIDIA L40S", nvidia, 0x26b9, 48, 0, MemoryType::gddr6, 384, 18, 864, 96 * MiB, "L2", false,
     "NVIDIA L40S datasheet; NVIDIA Ada GPU Architecture whitepaper (L2)", 128 * KiB},
    // NVIDIA RTX Blackwell GPU Architecture whitepaper: RTX 5090 32 GB GDDR7 at 28 Gbps on
    // 512 bits (1792 GB/s), 96 MB L2; RTX 5080 16 GB GDDR7 at 30 Gbps on 256 bits
    // (960 GB/s), 64 MB L2; 128 KB of L1 and shared memory per SM, as on Ada. Ids
    // 10de:2b85 "GB202 [GeForce RTX 5090]" and 10de:2c02 "GB203 [GeForce RTX 5080]"
    // (pci.ids, driver README).
    {"NVIDIA GeForce RTX 5090", nvidia, 0x2b85, 32, 0, MemoryType::gddr7, 512, 28, 1792, 96 * MiB, "L2", false,
     "NVIDIA RTX Blackwell GPU Architecture whitepaper", 128 * KiB},
    {"NVIDIA GeForce RTX 5080", nvidia, 0x2c02, 16, 0, MemoryType::gddr7, 256, 30, 960, 64 * MiB, "L2", false,
     "NVIDIA RTX Blackwell GPU Architecture whitepaper", 128 * KiB},
    // NVIDIA Ada GPU Architecture whitepaper: RTX 4090 21 Gbps on 384 bits (1008 GB/s),
    // 72 MB L2; RTX 4080 22.4 Gbps on 256 bits (716.8 GB/s), 64 MB L2.
    {"NVIDIA GeForce RTX 4090", nvidia, 0x2684, 24, 0, MemoryType::gddr6x, 384, 21, 1008, 72 * MiB, "L2", false,
     "NVIDIA Ada GPU Architecture whitepaper", 128 * KiB},
    {"NVIDIA GeForce RTX 4080", nvidia, 0x2704, 16, 0, MemoryType::gddr6x, 256, 22.4, 716.8, 64 * MiB, "L2", false,
     "NVIDIA Ada GPU Architecture whitepaper", 128 * KiB},
    // NVIDIA Ampere GA102 GPU Architecture whitepaper: RTX 3090 19.5 Gbps on 384 bits
    // (936 GB/s), 6 MB L2.
    {"NVIDIA GeForce RTX 3090", nvidia, 0x2204, 24, 0, MemoryType::gddr6x, 384, 19.5, 936, 6 * MiB, "L2", false,
     "NVIDIA Ampere GA102 GPU Architecture whitepaper", 128 * KiB},
    // AMD Instinct MI300X data sheet (192 GB HBM3, 5.3 TB/s, 304 CUs, 256 MB AMD
    // Infinity Cache); AMD CDNA 3 architecture whitepaper (8192-bit HBM3 at 5.2 Gbps).
    {"AMD Instinct MI300X", amd, 0x74a1, 192, 304, MemoryType::hbm3, 8192, 5.2, 5300, 256 * MiB, "Infinity Cache", true,
     "AMD Instinct MI300X data sheet; AMD CDNA 3 architecture whitepaper", 32 * KiB},
    // AMD Instinct MI325X data sheet: 256 GB HBM3E at 6 Gbps on 8192 bits, 6 TB/s, 304 CUs,
    // 256 MB AMD Infinity Cache. AMD Instinct MI350X and MI355X data sheets: 288 GB HBM3E
    // at 8 Gbps on 8192 bits, 8 TB/s, 256 CUs, 256 MB Infinity Cache; the two differ in
    // clocks and power, not in memory, and have ids of their own. The ROCm GPU
    // specifications table gives 32 KB of vector L1 per CU on CDNA 3 and 4 alike. Ids
    // 1002:74a5, 75a0 and 75a3 are "Instinct MI325X", "MI350X" and "MI355X" in pci.ids
    // and libdrm's amdgpu.ids. Both generations split into partitions like the MI300X.
    {"AMD Instinct MI325X", amd, 0x74a5, 256, 304, MemoryType::hbm3e, 8192, 6.0, 6000, 256 * MiB, "Infinity Cache",
     true, "AMD Instinct MI325X data sheet; AMD ROCm GPU specifications (L1)", 32 * KiB},
    {"AMD Instinct MI350X", amd, 0x75a0, 288, 256, MemoryType::hbm3e, 8192, 8.0, 8000, 256 * MiB, "Infinity Cache",
     true, "AMD Instinct MI350X data sheet; AMD CDNA 4 architecture whitepaper; AMD ROCm GPU specifications (L1)",
     32 * KiB},
    {"AMD Instinct MI355X", amd, 0x75a3, 288, 256, MemoryType::hbm3e, 8192, 8.0, 8000, 256 * MiB, "Infinity Cache",
     true, "AMD Instinct MI355X data sheet; AMD CDNA 4 architecture whitepaper; AMD ROCm GPU specifications (L1)",
     32 * KiB},
    // AMD Instinct MI250X and MI250 data sheets: 128 GB HBM2e at 3.2 TB/s over two GCDs
    // (8192 bits); each GCD is a device of its own with half of it: 64 GB, 4096 bits,
    // 1.6 TB/s, 8 MB L2 (AMD CDNA 2 architecture whitepaper). 220 CUs on the MI250X,
    // 208 on the MI250: 110 and 104 per GCD, the only thing that tells them apart.
    {"AMD Instinct MI250X (one GCD)", amd, 0x740c, 64, 110, MemoryType::hbm2e, 4096, 3.2, 1638.4, 8 * MiB, "L2", false,
     "AMD Instinct MI250X data sheet; AMD CDNA 2 architecture whitepaper", 16 * KiB},
    {"AMD Instinct MI250 (one GCD)", amd, 0x740c, 64, 104, MemoryType::hbm2e, 4096, 3.2, 1638.4, 8 * MiB, "L2", false,
     "AMD Instinct MI250 data sheet; AMD CDNA 2 architecture whitepaper", 16 * KiB},
    // AMD Instinct MI210 data sheet: 64 GB HBM2e, 1.6 TB/s on 4096 bits, 104 CUs, 8 MB L2.
    {"AMD Instinct MI210", amd, 0x740f, 64, 0, MemoryType::hbm2e, 4096, 3.2, 1638.4, 8 * MiB, "L2", false,
     "AMD Instinct MI210 data sheet", 16 * KiB},
    // AMD Radeon RX 7900 XTX and XT specifications (amd.com): 24 GB GDDR6 at 20 Gbps on
    // 384 bits (960 GB/s) with 96 MB Infinity Cache; 20 GB on 320 bits (800 GB/s) with 80 MB.
    {"AMD Radeon RX 7900 XTX", amd, 0x744c, 24, 0, MemoryType::gddr6, 384, 20, 960, 96 * MiB, "Infinity Cache", false,
     "AMD Radeon RX 7900 XTX specifications"},
    {"AMD Radeon RX 7900 XT", amd, 0x744c, 20, 0, MemoryType::gddr6, 320, 20, 800, 80 * MiB, "Infinity Cache", false,
     "AMD Radeon RX 7900 XT specifications"},
    // AMD Radeon RX 9070 XT and RX 9070 specifications (amd.com): both 16 GB GDDR6 at
    // 20 Gbps on 256 bits (640 GB/s) with 64 MB Infinity Cache; 64 and 56 CUs. They share
    // 1002:7550 (pci.ids "Navi 48 [Radeon RX 9070/9070 XT/9070 GRE]"; libdrm's amdgpu.ids
    // tells them apart by PCI revision, C0 and C3, which no module reports), and no
    // runtime counts their CUs apart: HIP and OpenCL count WGPs (32 and 28), Vulkan the
    // CUs a shader array can hold. One entry holds both: every figure here is the same.
    // The 12 GB RX 9070 GRE on the same id is another card, left to the runtime's clock.
    {"AMD Radeon RX 9070 XT or RX 9070", amd, 0x7550, 16, 0, MemoryType::gddr6, 256, 20, 640, 64 * MiB,
     "Infinity Cache", false, "AMD Radeon RX 9070 XT and RX 9070 specifications"},
    // Intel Arc A770 Graphics product specifications (ark.intel.com): 16 GB at 17.5 Gbps
    // (560 GB/s) or 8 GB at 16 Gbps (512 GB/s), 256 bits, 16 MB L2.
    {"Intel Arc A770 16GB", intel, 0x56a0, 16, 0, MemoryType::gddr6, 256, 17.5, 560, 16 * MiB, "L2", false,
     "Intel Arc A770 Graphics product specifications"},
    {"Intel Arc A770 8GB", intel, 0x56a0, 8, 0, MemoryType::gddr6, 256, 16, 512, 16 * MiB, "L2", false,
     "Intel Arc A770 Graphics product specifications"},
};

// Runtimes report a little less than the datasheet's size (memory the driver keeps).
constexpr double memory_below = 0.90, memory_above = 1.03;

bool memory_fits(const CardSpec &card, double gib)
{
    return gib >= card.memory_gib * memory_below && gib <= card.memory_gib * memory_above;
}

} // namespace

std::string_view to_string(MemoryType type)
{
    switch (type) {
    case MemoryType::gddr6: return "GDDR6";
    case MemoryType::gddr6x: return "GDDR6X";
    case MemoryType::gddr7: return "GDDR7";
    case MemoryType::hbm2: return "HBM2";
    case MemoryType::hbm2e: return "HBM2e";
    case MemoryType::hbm3: return "HBM3";
    case MemoryType::hbm3e: return "HBM3e";
    }
    return "unknown";
}

std::span<const CardSpec> card_table()
{
    return cards;
}

CardMatch match_card(const vrb_device_info &info)
{
    CardMatch m;
    if (!(info.known & VRB_KNOWN_PCI_IDS)) {
        m.why = "the API reports no PCI ids";
        return m;
    }
    std::vector<const CardSpec *> same_id;
    for (const CardSpec &c : cards)
        if (c.pci_vendor == info.pci_vendor_id && c.pci_device == info.pci_device_id) same_id.push_back(&c);
    const std::string id = fmt::format("{:04x}:{:04x}", info.pci_vendor_id, info.pci_device_id);
    if (same_id.empty()) {
        m.why = fmt::format("PCI id {} is not in the device table", id);
        return m;
    }
    const bool has_memory = (info.known & VRB_KNOWN_TOTAL_MEMORY) && info.total_memory_bytes > 0;
    const double gib = static_cast<double>(info.total_memory_bytes) / (1ull << 30);
    const bool has_units = (info.known & VRB_KNOWN_COMPUTE_UNITS) && info.compute_units > 0;

    // A slice of a card that can be split: fewer compute units or less memory than it.
    for (const CardSpec *c : same_id) {
        if (!c->partitionable) continue;
        const bool mig = module_text(info.name).find("MIG") != std::string_view::npos;
        const bool fewer_units = has_units && c->compute_units && info.compute_units < c->compute_units;
        const bool less_memory = has_memory && gib < c->memory_gib * memory_below;
        if (mig || fewer_units || less_memory) {
            m.kind = CardMatch::Kind::partitioned;
            m.card = c;
            m.why =
                fmt::format("a partition of an {} ({}): its share of the card's bandwidth is on no datasheet", c->name,
                            mig           ? "a MIG instance"
                            : fewer_units ? fmt::format("{} of {} compute units", info.compute_units, c->compute_units)
                                          : fmt::format("{:.1f} of {:.0f} GiB", gib, c->memory_gib));
            return m;
        }
    }
    // Vulkan sums every device-local heap, and a heap the host can map may alias the
    // rest (resizable BAR): the largest device-local heap alone may be the card's memory.
    double largest_heap = 0;
    for (uint32_t h = 0; h < std::min<uint32_t>(info.heap_count, VRB_MAX_HEAPS); ++h)
        if (info.heaps[h].flags & VRB_MEMORY_DEVICE_LOCAL)
            largest_heap = std::max(largest_heap, static_cast<double>(info.heaps[h].bytes) / (1ull << 30));
    for (const CardSpec *c : same_id) {
        if (has_memory && !memory_fits(*c, gib) && !(largest_heap > 0 && memory_fits(*c, largest_heap))) continue;
        if (c->compute_units && has_units && c->compute_units != info.compute_units) continue;
        m.candidates.push_back(c);
    }
    if (m.candidates.size() == 1) {
        m.kind = CardMatch::Kind::unique;
        m.card = m.candidates.front();
        m.why = fmt::format("PCI id {} with {:.1f} GiB is the {}", id, gib, m.card->name);
        return m;
    }
    if (m.candidates.empty()) {
        m.why = fmt::format("PCI id {} with {} matches no variant in the device table", id,
                            has_memory ? fmt::format("{:.1f} GiB", gib) : std::string("unknown memory"));
        return m;
    }
    m.kind = CardMatch::Kind::ambiguous;
    std::vector<std::string_view> names;
    for (const CardSpec *c : m.candidates)
        names.push_back(c->name);
    m.why = fmt::format("PCI id {} is any of {}: {} tell them apart", id, fmt::join(names, ", "),
                        has_memory ? "its memory does not" : "without its memory size nothing can");
    return m;
}

} // namespace vrb
