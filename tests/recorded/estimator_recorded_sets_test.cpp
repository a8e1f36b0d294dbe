// The time estimator (plan.hpp) against what recorded runs took: each set that records
// its probes' wall times is planned again, from the devices it describes and the options
// it ran with, by the current planner and estimator, and each probe's estimate is held
// within 2 x of its wall time. A new set under a recorded folder is a new row.
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/planning/plan.hpp>
#include <vrambench/core/probes/probe.hpp>
#include <vrambench/core/results/device_record.hpp>
#include <vrambench/core/run/estimate_check.hpp>

#include "../../core/src/probes/capacity_budget.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <set>

namespace {

// Probes shorter than this are all fixed costs and noise: estimate_check's threshold.
constexpr double recorded_least_seconds = vrb::estimate_least_seconds;
constexpr double recorded_most_ratio = 2;

// Every result set under the folders that hold recorded runs: the published sets and
// the corpus of machines not published.
std::vector<std::filesystem::path> recorded_set_files()
{
    std::vector<std::filesystem::path> files;
    for (const std::string folder : {std::string(VRAMBENCH_RESULTS_DIR), std::string(VRAMBENCH_TEST_DATA) + "/corpus"})
        for (const auto &entry : std::filesystem::recursive_directory_iterator(folder))
            if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The value of `--name VALUE` or `--name=VALUE` on the recorded command line.
std::optional<std::string> recorded_flag(const nlohmann::json &set, std::string_view name)
{
    const auto &line = set["run"].value("command_line", nlohmann::json::array());
    for (std::size_t i = 0; i < line.size(); ++i) {
        const std::string arg = line[i].get<std::string>();
        if (arg == name && i + 1 < line.size()) return line[i + 1].get<std::string>();
        if (arg.rfind(std::string(name) + "=", 0) == 0) return arg.substr(name.size() + 1);
    }
    return std::nullopt;
}

vrb::Suite recorded_suite(const nlohmann::json &set)
{
    const std::string suite = set["run"].value("suite", std::string("standard"));
    return suite == "quick" ? vrb::Suite::quick : suite == "full" ? vrb::Suite::full : vrb::Suite::standard;
}

// The options the run planned this device with: its suite and size flags as recorded on
// its command line, what its time budget gave up as recorded on the device, the run's other
// available backends as interop partners and the backend's other devices as peers.
vrb::ProbeOptions recorded_options(const nlohmann::json &set, const nlohmann::json &device)
{
    vrb::ProbeOptions o;
    o.suite = recorded_suite(set);
    if (const auto size = recorded_flag(set, "--size")) o.size = vrb::parse_size(*size);
    if (const auto reps = recorded_flag(set, "--reps")) o.repetitions = static_cast<uint32_t>(std::stoul(*reps));
    if (const auto limit = recorded_flag(set, "--memory-limit")) o.memory_limit = vrb::parse_memory_limit(*limit);
    if (const auto llc = recorded_flag(set, "--llc")) o.llc = vrb::parse_size(*llc);
    if (const auto budget = device.find("time_budget"); budget != device.end() && budget->is_object()) {
        o.economy = budget->value("economy", 0u);
        if (budget->contains("most_array_bytes")) o.most_array_bytes = (*budget)["most_array_bytes"].get<uint64_t>();
    }
    if (const auto ram = device.find("ram_budget"); ram != device.end() && ram->is_object() && !o.most_array_bytes)
        if (ram->contains("most_array_bytes")) o.most_array_bytes = (*ram)["most_array_bytes"].get<uint64_t>();
    const std::string backend = device.value("backend", std::string());
    for (const auto &b : set.value("backends", nlohmann::json::array()))
        if (b.value("state", std::string()) == "available" && b.value("name", std::string()) != backend)
            o.partner_modules.push_back(b.value("file", std::string()));
    uint32_t peers = 0;
    for (const auto &d : set["devices"])
        peers += d.value("backend", std::string()) == backend && d["id"] != device["id"];
    o.peer_devices = peers;
    return o;
}

// What the results of one probe on one device recorded under `key`: the distinct numbers.
std::set<uint64_t> recorded_values(const nlohmann::json &set, const std::string &device, const std::string &probe,
                                   const std::string &key)
{
    std::set<uint64_t> values;
    for (const auto &r : set["results"]) {
        if (r.value("device", std::string()) != device || r.value("probe", std::string()) != probe) continue;
        const auto p = r.find("parameters");
        if (p == r.end() || !p->is_object() || !p->contains(key) || !(*p)[key].is_number()) continue;
        values.insert((*p)[key].get<uint64_t>());
    }
    return values;
}

// The sizes a plan names that a probe's results record as parameters of the same name.
constexpr std::array<std::string_view, 8> compared_sizes{
    "array_bytes", "from_bytes", "to_bytes", "points", "elements", "most_steps", "footprint_bytes", "budget_bytes"};

// The sizes of `plan` its results recorded otherwise ("" where every size that ran was
// planned). A run may record less than planned (a kind's smaller allocation, a size
// refused), never a size the plan does not name.
std::string recorded_size_mismatch(const nlohmann::json &set, const std::string &device, const vrb::ProbePlan &plan)
{
    std::string out;
    for (const std::string_view key : compared_sizes) {
        const auto it = plan.sizes.find(key);
        if (it == plan.sizes.end()) continue;
        const auto recorded = recorded_values(set, device, plan.probe, std::string(key));
        std::set<uint64_t> mine;
        if (it->is_number()) mine.insert(it->get<uint64_t>());
        if (it->is_array())
            for (const auto &v : *it)
                if (v.is_number()) mine.insert(v.get<uint64_t>());
        if (recorded.empty() || mine.empty()) continue;
        // Sets recorded before the capacity probes kept a share of the machine's RAM for
        // what the run holds beside its buffers allocated the whole share: that share less
        // this version's reserve is the same work.
        std::set<uint64_t> ran;
        const auto budgets = recorded_values(set, device, plan.probe, "budget_bytes");
        for (const uint64_t r : recorded) {
            const uint64_t reserve = vrb::capacity::host_reserve_of(r);
            ran.insert(budgets.count(r) && !mine.count(r) && r > reserve && mine.count(r - reserve) ? r - reserve : r);
        }
        if (!std::includes(mine.begin(), mine.end(), ran.begin(), ran.end()))
            out += fmt::format("{}{}: {} planned {}, recorded {}", out.empty() ? "" : "; ", plan.probe, key,
                               fmt::join(mine, ","), fmt::join(recorded, ","));
    }
    return out;
}

// What --size would name for the work a probe's results record: its largest array, or
// its largest working set.
std::optional<uint64_t> recorded_named_size(const nlohmann::json &set, const std::string &device,
                                            const std::string &probe)
{
    for (const std::string key : {"array_bytes", "to_bytes"})
        if (const auto values = recorded_values(set, device, probe, key); !values.empty()) return *values.rbegin();
    return std::nullopt;
}

// The seconds each point of `device` ran back to back before its timed runs, as its wall
// times record them. Sets made before runs recorded it are read as none: the one GPU set
// among them (the H200's) was made before a GPU's points were warmed.
double recorded_warm_seconds(const nlohmann::json &set, const std::string &device)
{
    for (const auto &r : set["results"])
        if (r.value("device", std::string()) == device && r.contains("extra") && r["extra"].contains("wall_time") &&
            r["extra"]["wall_time"].contains("warm_seconds_per_point"))
            return r["extra"]["wall_time"]["warm_seconds_per_point"].get<double>();
    return 0;
}

struct RecordedRow {
    std::string set, device, probe;
    double wall = 0;
    std::optional<double> estimate;
};

std::string recorded_rows_table(const std::vector<RecordedRow> &rows)
{
    std::string out = fmt::format("{:<48} {:<10} {:<24} {:>9} {:>9} {:>7}\n", "set", "device", "probe", "wall s",
                                  "estimate", "ratio");
    for (const RecordedRow &r : rows)
        out += fmt::format("{:<48} {:<10} {:<24} {:>9.2f} {:>9} {:>7}\n", r.set, r.device, r.probe, r.wall,
                           r.estimate ? fmt::format("{:.2f}", *r.estimate) : "none",
                           r.estimate && *r.estimate > 0 ? fmt::format("{:.2f}", *r.estimate / r.wall) : "-");
    return out;
}

} // namespace

TEST(EstimatorOnRecordedSets, EveryProbeOverHalfASecondIsEstimatedWithinTwiceItsRecordedWallTime)
{
    std::vector<const vrb::Probe *> probes;
    for (const auto &p : vrb::all_probes())
        probes.push_back(p.get());
    std::vector<RecordedRow> rows, failures;
    std::vector<std::string> size_mismatches;
    std::size_t sets = 0;
    for (const auto &file : recorded_set_files()) {
        std::ifstream in(file);
        const nlohmann::json set = nlohmann::json::parse(in);
        if (!set.is_object() || !set.contains("results")) continue; // a schema, not a set
        const auto walls = vrb::probe_wall_times(set);
        if (walls.empty()) continue; // recorded before wall times were
        ++sets;
        const std::string name =
            std::filesystem::relative(file, std::filesystem::path(VRAMBENCH_RESULTS_DIR).parent_path()).string();
        for (const auto &d : set["devices"]) {
            const vrb::DeviceRecord device = vrb::device_record_from_json(d);
            vrb::ProbeOptions options = recorded_options(set, d);
            if (!options.llc && d.contains("last_level_cache") && d["last_level_cache"].value("source", "") == "option")
                options.llc = d["last_level_cache"]["bytes"].get<uint64_t>();
            vrb::DeviceRecord planned = device;
            planned.llc_option = options.llc;
            vrb::DevicePlan plan = vrb::plan_device(planned, probes, options);
            // The warm-up the run made, which is no planning rule's but the runner's.
            plan.throughput.warm_seconds_per_point = recorded_warm_seconds(set, device.id);
            for (vrb::ProbePlan &p : plan.probes)
                p.seconds = vrb::estimate_seconds(p.cost, plan.throughput);
            for (vrb::ProbePlan &p : plan.probes) {
                auto mismatch = recorded_size_mismatch(set, device.id, p);
                if (mismatch.empty()) continue;
                // A size rule changed since the run: the probe is planned with the size that
                // ran named as --size names it, so the estimate is of the work that ran.
                vrb::ProbeOptions named = options;
                named.size = recorded_named_size(set, device.id, p.probe);
                const auto probe =
                    std::find_if(probes.begin(), probes.end(), [&](const vrb::Probe *x) { return x->id() == p.probe; });
                if (named.size && probe != probes.end()) {
                    vrb::ProbePlan again = (*probe)->plan(planned, named);
                    again.probe = p.probe;
                    if (recorded_size_mismatch(set, device.id, again).empty()) {
                        again.seconds = vrb::estimate_seconds(again.cost, plan.throughput);
                        p = std::move(again);
                        continue;
                    }
                }
                size_mismatches.push_back(fmt::format("{} {} {}", name, device.id, mismatch));
            }
            for (const vrb::ProbeWallTime &w : walls) {
                if (w.device != device.id) continue;
                const auto p = std::find_if(plan.probes.begin(), plan.probes.end(),
                                            [&](const vrb::ProbePlan &x) { return x.probe == w.probe; });
                RecordedRow row{name, w.device, w.probe, w.seconds, std::nullopt};
                if (p != plan.probes.end() && p->estimated) row.estimate = p->seconds;
                rows.push_back(row);
                if (w.seconds <= recorded_least_seconds) continue;
                if (!row.estimate || *row.estimate > recorded_most_ratio * w.seconds ||
                    *row.estimate < w.seconds / recorded_most_ratio)
                    failures.push_back(row);
            }
        }
    }
    EXPECT_GE(sets, 2u) << "the H200's set and the Intel VM's record wall times";
    EXPECT_TRUE(size_mismatches.empty()) << "the plan does not size the work that ran:\n"
                                         << fmt::format("{}", fmt::join(size_mismatches, "\n"));
    EXPECT_TRUE(failures.empty()) << "estimates past 2 x of the recorded wall time:\n"
                                  << recorded_rows_table(failures) << "\nevery probe:\n"
                                  << recorded_rows_table(rows);
}
