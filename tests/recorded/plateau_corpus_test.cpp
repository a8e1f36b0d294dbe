// Every recorded curve, named: each chase and sweep of the published sets (results/) and
// of the sets recorded on machines the project has no results folder for
// (tests/data/corpus), re-derived from its points and device description as
// `vrambench analyze` does, against a row that says the names its levels must get and
// their values. Adding a machine is adding its rows.
#include <vrambench/core/analysis/curve_analysis.hpp>
#include <vrambench/core/analysis/levels.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

// Each level's value within this fraction of its row's: the rule names levels, and a
// level found at another value is a different level (the plateaus around it moved).
constexpr double tolerance = 0.05;

struct Level {
    std::string name;
    double value = 0;
};

struct Row {
    std::string set; // results/NAME or corpus/NAME
    std::string device, probe, operation;
    std::vector<Level> levels;
    // false: the row pins only the levels it lists, for a curve measured wrong that is to
    // be measured again (the H200's read and write sweeps: a GPU kernel's mistake).
    bool whole = true;
};

std::string path_of(const std::string &set)
{
    if (set.starts_with("results/")) return std::string(VRAMBENCH_RESULTS_DIR) + "/" + set.substr(8) + "/standard.json";
    return std::string(VRAMBENCH_TEST_DATA) + "/corpus/" + set.substr(7) + ".json";
}

// Each set read and re-derived once for the whole test program.
const json &derived(const std::string &set)
{
    static std::map<std::string, json> cache;
    auto it = cache.find(set);
    if (it != cache.end()) return it->second;
    std::ifstream in(path_of(set));
    if (!in) throw std::runtime_error("cannot read " + path_of(set));
    json document = json::parse(in);
    vrb::analysis::reanalyze(document);
    return cache.emplace(set, std::move(document)).first->second;
}

const char *const sets[] = {"results/ci-vm-epyc-2vcpu",      "results/ci-vm-epyc-zen3-2vcpu",
                            "results/ci-vm-epyc-zen5-2vcpu", "results/nvidia-h200-cuda",
                            "corpus/intel-xeon-vm-2vcpu",    "corpus/intel-xeon-vm-2vcpu-d7dada5"};

bool named_curve(const json &r)
{
    const std::string probe = vrb::text_or(r, "probe", "");
    return probe == "latency.chase" || probe == "bandwidth.sweep";
}

std::string operation_of(const json &r)
{
    return vrb::text_or(vrb::object_or_empty(r, "parameters"), "operation", "");
}

const json &plateaus_of(const json &r)
{
    return vrb::array_or_empty(vrb::object_or_empty(vrb::object_or_empty(r, "extra"), "curve"), "plateaus");
}

std::string described(const json &plateaus)
{
    std::string out;
    for (const json &p : plateaus)
        out += (out.empty() ? "" : ", ") + vrb::text_or(p, "name", "?") + " " +
               std::to_string(vrb::number_or(p, "value", 0));
    return out;
}

// clang-format off
const std::vector<Row> rows = {
    // results/ci-vm-epyc-2vcpu
    {"results/ci-vm-epyc-2vcpu", "host:0", "bandwidth.sweep", "read", {{"L1+L2+L3", 130.4}, {"between L3 and memory", 61.73}, {"memory", 53.57}}},
    {"results/ci-vm-epyc-2vcpu", "host:0", "bandwidth.sweep", "write", {{"L1+L2+L3", 51.53}, {"memory", 33.08}}},
    {"results/ci-vm-epyc-2vcpu", "host:0", "bandwidth.sweep", "copy", {{"overhead", 354.4}, {"L1", 477.4}, {"L2", 289}, {"L3", 155.1}, {"between L3 and memory", 67.28}, {"memory", 78.82}}},
    {"results/ci-vm-epyc-2vcpu", "host:0", "latency.chase", "chase", {{"L1", 1.676}, {"L2", 5.21}, {"between L2 and L3", 13.85}, {"L3", 19.51}, {"memory", 153.9}, {"memory past the TLB", 199.7}}},
    {"results/ci-vm-epyc-2vcpu", "vulkan:0", "bandwidth.sweep", "read", {{"overhead", 0.6174}, {"overhead (2)", 1.164}, {"overhead (3)", 2.184}, {"overhead (4)", 4.085}, {"overhead (5)", 6.706}, {"overhead (6)", 10.79}, {"short of memory", 15.73}}},
    {"results/ci-vm-epyc-2vcpu", "vulkan:0", "bandwidth.sweep", "write", {{"overhead", 0.1923}, {"overhead (2)", 0.6107}, {"overhead (3)", 1.393}, {"overhead (4)", 3.082}, {"overhead (5)", 5.443}, {"short of memory", 7.635}}},
    {"results/ci-vm-epyc-2vcpu", "vulkan:0", "bandwidth.sweep", "copy", {{"overhead", 0.3181}, {"overhead (2)", 0.7057}, {"overhead (3)", 1.531}, {"overhead (4)", 3.101}, {"overhead (5)", 5.448}, {"overhead (6)", 9.382}, {"short of memory", 14.93}}},
    {"results/ci-vm-epyc-2vcpu", "vulkan:0", "latency.chase", "chase", {{"short of memory", 22.76}, {"short of memory (2)", 32.21}, {"short of memory (3)", 102.4}, {"short of memory (4)", 173.9}, {"short of memory (5)", 255.3}}},
    // results/ci-vm-epyc-zen3-2vcpu
    {"results/ci-vm-epyc-zen3-2vcpu", "host:0", "bandwidth.sweep", "read", {{"overhead", 190.4}, {"L1", 369.3}, {"L2", 183.4}, {"L3", 124.6}, {"between L3 and memory", 26.11}, {"memory", 19.12}}},
    {"results/ci-vm-epyc-zen3-2vcpu", "host:0", "bandwidth.sweep", "write", {{"L1+L2", 174.4}, {"L3", 107.3}, {"memory", 19.97}}},
    {"results/ci-vm-epyc-zen3-2vcpu", "host:0", "bandwidth.sweep", "copy", {{"L1", 362.4}, {"L2", 168.4}, {"L3", 127.3}, {"between L3 and memory", 34.45}, {"memory", 27.33}}},
    {"results/ci-vm-epyc-zen3-2vcpu", "host:0", "latency.chase", "chase", {{"L1", 1.613}, {"L2", 4.283}, {"L3", 16.62}, {"memory", 171.8}}},
    {"results/ci-vm-epyc-zen3-2vcpu", "vulkan:0", "bandwidth.sweep", "read", {{"overhead", 5.975}, {"overhead (2)", 11.66}, {"L2+L3", 14.91}, {"memory", 12.08}}},
    {"results/ci-vm-epyc-zen3-2vcpu", "vulkan:0", "bandwidth.sweep", "write", {{"overhead", 4.318}, {"memory", 5.188}}},
    {"results/ci-vm-epyc-zen3-2vcpu", "vulkan:0", "bandwidth.sweep", "copy", {{"overhead", 5.915}, {"overhead (2)", 8.046}, {"memory", 11.78}}},
    {"results/ci-vm-epyc-zen3-2vcpu", "vulkan:0", "latency.chase", "chase", {{"L1", 30.47}, {"L1 past the TLB", 43.79}, {"L2", 53.73}, {"between L2 and L3", 35.49}, {"L3", 66.1}, {"between L3 and memory", 234.8}, {"memory", 279.3}, {"memory past the TLB", 332.1}}},
    // results/ci-vm-epyc-zen5-2vcpu
    {"results/ci-vm-epyc-zen5-2vcpu", "host:0", "bandwidth.sweep", "read", {{"L1+L2", 317}, {"L3", 178.2}, {"memory", 81.01}}},
    {"results/ci-vm-epyc-zen5-2vcpu", "host:0", "bandwidth.sweep", "write", {{"overhead", 255.1}, {"L1", 372.3}, {"L2", 252.6}, {"L3", 182.2}, {"memory", 64.42}}},
    {"results/ci-vm-epyc-zen5-2vcpu", "host:0", "bandwidth.sweep", "copy", {{"L1", 506.4}, {"L2", 270.9}, {"between L2 and L3", 189}, {"L3", 161.7}, {"between L3 and memory", 135.1}, {"memory", 100.8}}},
    {"results/ci-vm-epyc-zen5-2vcpu", "host:0", "latency.chase", "chase", {{"L1", 1.445}, {"L2", 4.503}, {"L2 past the TLB", 8.934}, {"L3", 17.6}, {"memory", 143.1}, {"memory past the TLB", 176.9}}},
    {"results/ci-vm-epyc-zen5-2vcpu", "vulkan:0", "bandwidth.sweep", "read", {{"overhead", 25.85}, {"memory", 34.15}}},
    {"results/ci-vm-epyc-zen5-2vcpu", "vulkan:0", "bandwidth.sweep", "write", {{"overhead", 13.63}, {"L1+L2+L3", 18.46}, {"between L3 and memory", 15.84}, {"memory", 19.29}}},
    {"results/ci-vm-epyc-zen5-2vcpu", "vulkan:0", "bandwidth.sweep", "copy", {{"memory", 26.13}}},
    {"results/ci-vm-epyc-zen5-2vcpu", "vulkan:0", "latency.chase", "chase", {{"L1+L2", 24.33}, {"L2 past the TLB", 31.42}, {"L3", 53.53}, {"between L3 and memory", 151.7}, {"memory", 200.8}, {"memory past the TLB", 262.9}}},
    // results/nvidia-h200-cuda
    {"results/nvidia-h200-cuda", "cuda:0", "bandwidth.sweep", "read", {{"memory", 4515}}, false},
    {"results/nvidia-h200-cuda", "cuda:0", "bandwidth.sweep", "write", {{"memory", 4444}}, false},
    {"results/nvidia-h200-cuda", "cuda:0", "bandwidth.sweep", "copy", {{"overhead", 1990}, {"overhead (2)", 3586}, {"L2", 7305}, {"memory", 4189}}},
    {"results/nvidia-h200-cuda", "cuda:0", "latency.chase", "chase", {{"L1", 16.65}, {"L2", 142}, {"memory", 332.9}}},
    // corpus/intel-xeon-vm-2vcpu
    {"corpus/intel-xeon-vm-2vcpu", "host:0", "bandwidth.sweep", "read", {{"L1", 429.7}, {"L2", 281.2}, {"L3", 58.3}, {"between L3 and memory", 50.06}, {"memory", 24.61}}},
    {"corpus/intel-xeon-vm-2vcpu", "host:0", "bandwidth.sweep", "write", {{"L1", 375.4}, {"L2", 114.1}, {"L3", 57.56}, {"between L3 and memory", 16.64}, {"memory", 47}}},
    {"corpus/intel-xeon-vm-2vcpu", "host:0", "bandwidth.sweep", "copy", {{"overhead", 570.7}, {"L1", 700}, {"L2", 191.5}, {"L3", 58.35}, {"between L3 and memory", 26.28}, {"memory", 45.32}}},
    {"corpus/intel-xeon-vm-2vcpu", "host:0", "latency.chase", "chase", {{"L1", 1.331}, {"L2", 4.35}, {"L2 past the TLB", 5.563}, {"L3", 37.1}, {"between L3 and memory", 135.5}, {"memory", 166.4}, {"memory past the TLB", 191.5}, {"memory past the TLB (2)", 287.9}}},
    {"corpus/intel-xeon-vm-2vcpu", "opencl:0", "bandwidth.sweep", "read", {{"overhead", 111.5}, {"L2", 198.2}, {"L3", 54.21}, {"between L3 and memory", 37.31}, {"memory", 29.07}}},
    {"corpus/intel-xeon-vm-2vcpu", "opencl:0", "bandwidth.sweep", "write", {{"overhead", 21.83}, {"L2+L3", 35.49}, {"between L3 and memory", 23.87}, {"memory", 14.99}}},
    {"corpus/intel-xeon-vm-2vcpu", "opencl:0", "bandwidth.sweep", "copy", {{"L1", 115.9}, {"between L1 and L2", 96.13}, {"L2", 181.7}, {"L3", 58.63}, {"memory", 25.22}}},
    {"corpus/intel-xeon-vm-2vcpu", "opencl:0", "latency.chase", "chase", {{"L1", 2.139}, {"L2", 5.203}, {"L2 past the TLB", 6.647}, {"between L2 and L3", 19.41}, {"L3", 35.98}, {"L3 past the TLB", 52.79}, {"memory", 167}, {"memory past the TLB", 217.7}, {"memory past the TLB (2)", 314}, {"memory past the TLB (3)", 531.3}}},
    {"corpus/intel-xeon-vm-2vcpu", "vulkan:0", "bandwidth.sweep", "read", {{"overhead", 22.4}, {"L2+L3", 28.38}, {"between L3 and memory", 22.08}, {"between L3 and memory (2)", 10.89}, {"memory", 7.897}}},
    {"corpus/intel-xeon-vm-2vcpu", "vulkan:0", "bandwidth.sweep", "write", {{"L1+L2+L3", 4.711}, {"between L3 and memory", 3.698}, {"memory", 4.807}}},
    {"corpus/intel-xeon-vm-2vcpu", "vulkan:0", "bandwidth.sweep", "copy", {{"memory", 8.717}}},
    {"corpus/intel-xeon-vm-2vcpu", "vulkan:0", "latency.chase", "chase", {{"L1+L2", 24.38}, {"L3", 59.6}, {"between L3 and memory", 122.8}, {"memory", 185.2}, {"memory past the TLB", 231.1}}},
    // corpus/intel-xeon-vm-2vcpu-d7dada5
    {"corpus/intel-xeon-vm-2vcpu-d7dada5", "host:0", "bandwidth.sweep", "read", {{"L1", 415.5}, {"L2", 273.1}, {"L3", 55.08}, {"memory", 28.17}}},
    {"corpus/intel-xeon-vm-2vcpu-d7dada5", "host:0", "bandwidth.sweep", "write", {{"overhead", 346.3}, {"L1", 421.8}, {"L2", 122.7}, {"L3", 53.67}, {"between L3 and memory", 18.83}, {"memory", 45.79}}},
    {"corpus/intel-xeon-vm-2vcpu-d7dada5", "host:0", "bandwidth.sweep", "copy", {{"L1", 681.1}, {"L2", 188.8}, {"L3", 57.55}, {"between L3 and memory", 45.09}, {"between L3 and memory (2)", 26.75}, {"memory", 43.57}}},
    {"corpus/intel-xeon-vm-2vcpu-d7dada5", "host:0", "latency.chase", "chase", {{"L1", 1.429}, {"L2", 4.731}, {"L2 past the TLB", 6.099}, {"L3", 44.07}, {"L3 past the TLB", 68.5}, {"memory", 145.9}, {"memory past the TLB", 176.7}, {"memory past the TLB (2)", 251.6}}},
    {"corpus/intel-xeon-vm-2vcpu-d7dada5", "opencl:0", "bandwidth.sweep", "read", {{"overhead", 103.9}, {"L2", 184.4}, {"between L2 and L3", 157.7}, {"L3", 45.57}, {"between L3 and memory", 36.6}, {"between L3 and memory (2)", 27.03}, {"memory", 21.6}}},
    {"corpus/intel-xeon-vm-2vcpu-d7dada5", "opencl:0", "bandwidth.sweep", "write", {{"overhead", 19.11}, {"L2", 37.26}, {"L3", 18.15}, {"between L3 and memory", 31.48}, {"between L3 and memory (2)", 15.75}, {"memory", 12.38}}},
    {"corpus/intel-xeon-vm-2vcpu-d7dada5", "opencl:0", "bandwidth.sweep", "copy", {{"L1", 147.3}, {"between L1 and L2", 85.54}, {"L2", 160.6}, {"L3", 65.77}, {"between L3 and memory", 52.22}, {"between L3 and memory (2)", 32.19}, {"between L3 and memory (3)", 21.12}, {"memory", 29.62}}},
    {"corpus/intel-xeon-vm-2vcpu-d7dada5", "opencl:0", "latency.chase", "chase", {{"L1", 2.564}, {"L2", 6.153}, {"L2 past the TLB", 12.03}, {"L3", 49.5}, {"L3 past the TLB", 98.8}, {"memory", 182.4}, {"memory past the TLB", 258.3}}},
    {"corpus/intel-xeon-vm-2vcpu-d7dada5", "vulkan:0", "bandwidth.sweep", "read", {{"L1", 16}, {"L2+L3", 6.836}, {"between L3 and memory", 11.75}, {"memory", 9.311}}},
    {"corpus/intel-xeon-vm-2vcpu-d7dada5", "vulkan:0", "bandwidth.sweep", "write", {{"memory", 4.194}}},
    {"corpus/intel-xeon-vm-2vcpu-d7dada5", "vulkan:0", "bandwidth.sweep", "copy", {{"L1", 6.884}, {"between L1 and L2", 4.028}, {"memory", 6.828}}},
    {"corpus/intel-xeon-vm-2vcpu-d7dada5", "vulkan:0", "latency.chase", "chase", {{"L1+L2", 26.18}, {"L2 past the TLB", 39.95}, {"L3", 117}, {"memory", 207.8}, {"memory past the TLB", 282.8}}},
};
// clang-format on

const Row *row_for(const std::string &set, const json &r)
{
    for (const Row &row : rows)
        if (row.set == set && row.device == vrb::text_or(r, "device", "") &&
            row.probe == vrb::text_or(r, "probe", "") && row.operation == operation_of(r))
            return &row;
    return nullptr;
}

} // namespace

TEST(PlateauCorpus, EveryRecordedCurveNamesItsLevelsAsItsRowSays)
{
    for (const char *set : sets)
        for (const json &r : derived(set).at("results")) {
            if (!named_curve(r)) continue;
            const Row *row = row_for(set, r);
            const std::string where = std::string(set) + " " + vrb::text_or(r, "device", "") + " " +
                                      vrb::text_or(r, "probe", "") + " " + operation_of(r);
            if (!row) {
                ADD_FAILURE() << where << " has no row: " << described(plateaus_of(r));
                continue;
            }
            const json &plateaus = plateaus_of(r);
            if (row->whole) EXPECT_EQ(plateaus.size(), row->levels.size()) << where << ": " << described(plateaus);
            for (const Level &level : row->levels) {
                const auto value = vrb::analysis::level_figure(r, level.name);
                if (!value) {
                    ADD_FAILURE() << where << " names no " << level.name << ": " << described(plateaus);
                    continue;
                }
                EXPECT_NEAR(*value, level.value, tolerance * level.value) << where << " " << level.name;
            }
            if (row->whole)
                for (std::size_t k = 0; k < std::min(plateaus.size(), row->levels.size()); ++k)
                    EXPECT_EQ(vrb::text_or(plateaus[k], "name", ""), row->levels[k].name) << where << " level " << k;
        }
}

TEST(PlateauCorpus, EveryRowIsACurveOfItsSet)
{
    for (const Row &row : rows) {
        bool found = false;
        for (const json &r : derived(row.set).at("results"))
            found = found || (named_curve(r) && row_for(row.set, r) == &row);
        EXPECT_TRUE(found) << row.set << " " << row.device << " " << row.probe << " " << row.operation;
    }
}

TEST(PlateauCorpus, TheH200ChaseIsL1L2AndMemoryAt333Ns)
{
    const json &set = derived("results/nvidia-h200-cuda");
    for (const json &r : set.at("results")) {
        if (vrb::text_or(r, "probe", "") != "latency.chase") continue;
        EXPECT_NEAR(vrb::analysis::level_figure(r, "L1").value_or(0), 16.7, 0.5);
        EXPECT_NEAR(vrb::analysis::level_figure(r, "L2").value_or(0), 142, 3);
        EXPECT_NEAR(vrb::analysis::memory_latency(r).value_or(vrb::analysis::MemoryLatency{}).ns, 333, 5);
    }
    EXPECT_NEAR(vrb::analysis::memory_latency(set, "cuda:0").value_or(vrb::analysis::MemoryLatency{}).ns, 333, 5);
}

TEST(PlateauCorpus, TheXeonVmsHostChaseHasItsMemoryAtThe146NsPlateauWithinTenPercentOfTinymembench)
{
    // tinymembench on a VM of that kind: DRAM at 150 (huge pages) to 163 ns (4 KiB pages);
    // the 177 and 252 ns steps past it are page walks.
    const auto memory = vrb::analysis::memory_latency(derived("corpus/intel-xeon-vm-2vcpu-d7dada5"), "host:0");
    ASSERT_TRUE(memory);
    EXPECT_NEAR(memory->ns, 146, 4);
    EXPECT_GE(memory->ns, 0.9 * 150);
    EXPECT_LE(memory->ns, 1.1 * 163);
}

TEST(PlateauCorpus, NoCurveNamesACacheByNumberOrADip)
{
    for (const char *set : sets)
        for (const json &r : derived(set).at("results"))
            for (const json &p : plateaus_of(r)) {
                const std::string name = vrb::text_or(p, "name", "");
                EXPECT_FALSE(name.starts_with("cache ")) << set << " " << operation_of(r) << ": " << name;
                EXPECT_NE(name, "dip") << set << " " << operation_of(r);
            }
}

TEST(PlateauCorpus, NoWriteSweepNamesAStretchWithinFifteenPercentOfMemoryAsAnythingButMemory)
{
    // Between the last cache and memory, a plateau within 15 % of memory's level is one
    // plateau with it (find_plateaus), never a level or a dip of its own.
    for (const char *set : sets)
        for (const json &r : derived(set).at("results")) {
            if (operation_of(r) != "write" || !named_curve(r)) continue;
            const auto memory = vrb::analysis::level_figure(r, "memory");
            if (!memory) continue;
            for (const json &p : plateaus_of(r)) {
                const std::string name = vrb::text_or(p, "name", "");
                if (!name.starts_with("between ")) continue;
                const double v = vrb::number_or(p, "value", 0);
                EXPECT_GT(std::max(v, *memory) / std::min(v, *memory), 1.15) << set << " " << name;
            }
        }
}
