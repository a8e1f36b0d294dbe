// The list of checks, and one module run through all of them.
#include "checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>
#include <set>

namespace vrb::conformance {

const std::vector<ModuleCheck> &module_checks()
{
    static const std::vector<ModuleCheck> checks = {
        {"abi.entry", "the file loads and exports vrb_plugin_entry", check_entry},
        {"abi.negotiation", "hosts of this ABI, a newer and an older minor are served; another major is refused",
         check_negotiation},
        {"abi.table", "the function table is long enough, names the backend, and fills every required slot",
         check_table},
        // Runs after the device checks, over init/shutdown cycles of its own.
        {"module.open-close-cycles", "no file descriptor or heap block is kept across init/open/close/shutdown cycles",
         check_open_close_cycles},
    };
    return checks;
}

const std::vector<DeviceCheck> &device_checks()
{
    static const std::vector<DeviceCheck> checks = {
        {"device.description", "the device has a name, an API and named memory kinds, one of them usable by kernels",
         check_description},
        {"abi.struct-size", "structs of older and newer hosts: nothing written past struct_size, no field read past it",
         check_struct_sizes},
        {"ops.elementwise", "write, copy, scale, add, triad: every lane, every width and count", check_elementwise},
        {"ops.read-dot", "read and dot checksums", check_reductions},
        {"ops.strided-read", "strided read sums only the elements it visits", check_strided},
        {"ops.gather", "gather sums the elements its indices name", check_gather},
        {"ops.chase", "chase follows the chain to the same last index", check_chase},
        {"ops.fill-check", "fill writes every pattern at every width and offset; check finds two flipped bits",
         check_fill_and_check},
        {"ops.offsets", "operand offsets shift where an operation reads and writes", check_offsets},
        {"ops.passes", "passes repeat an operation and answer as one pass", check_passes},
        {"ops.incompressible-write", "write leaves no equal or constant 128-byte lines", check_incompressible_write},
        {"ops.transfer", "transfer between every pair of memory kinds, and both ways at once", check_transfers},
        {"ops.bad-arguments", "operations past a buffer, bad widths, offsets and kinds are refused, not run",
         check_bad_arguments},
        {"ops.capabilities",
         "what op_supported calls supported runs and verifies; what it does not is refused as unsupported",
         check_capabilities},
        {"interop.semaphores",
         "an exportable timeline semaphore signals, waits and times out; imported on a second device, signals cross "
         "both ways and a device-side wait holds back what follows it",
         check_semaphores},
        {"interop.export-import",
         "memory exported and imported back reads and writes the same bytes; an export makes a new fd, an import "
         "takes it (no fd more once all is freed), a failed import leaves it the caller's",
         check_export_import},
        {"interop.peers",
         "with two or more devices: the peer copies and in-place reads (read, chase) peer_query offers give the host's "
         "answers",
         check_peers},
        {"ops.large-counts",
         "(--large) the element-wise operations, read and dot past 2^22 lanes, at every width: every lane and sum",
         check_large_counts, true},
    };
    return checks;
}

const DeviceCheck *find_device_check(std::string_view name)
{
    for (const DeviceCheck &check : device_checks())
        if (check.name == name) return &check;
    return nullptr;
}

uint64_t Report::failed_checks() const
{
    return static_cast<uint64_t>(
        std::count_if(checks.begin(), checks.end(), [](const CheckOutcome &c) { return !c.findings.passed(); }));
}

Report check_module(const std::filesystem::path &module, const CheckStarting &starting, const KitOptions &options)
{
    auto announce = [&](std::string_view check, std::string_view scope) {
        if (starting) starting(check, scope);
    };
    Report report;
    report.module = module;
    report.build = module_build(module);
    const std::string file = module.filename().string();
    auto run_module_check = [&](const ModuleCheck &check) {
        CheckOutcome outcome{std::string(check.name), file, {}};
        announce(check.name, file);
        try {
            check.run(module, outcome.findings);
        } catch (const std::exception &e) {
            outcome.findings.fail(e.what());
        }
        report.checks.push_back(std::move(outcome));
        return report.checks.back().findings.passed();
    };
    bool abi_ok = true;
    for (const ModuleCheck &check : module_checks())
        if (check.name.starts_with("abi.")) abi_ok = run_module_check(check) && abi_ok;
    if (!abi_ok) {
        report.reason = "the module fails the ABI checks; nothing past them was run";
        return report;
    }

    std::shared_ptr<Backend> backend;
    announce("backend.init", file);
    try {
        auto loaded = Module::load(module);
        report.backend = loaded->name();
        const vrb_plugin_table &table = loaded->table();
        report.description = table.description ? table.description : "";
        report.module_version = table.module_version ? table.module_version : "";
        report.abi_version = loaded->version();
        backend = Backend::create(loaded, default_host_table());
    } catch (const UnavailableError &e) {
        report.outcome = Report::Outcome::unavailable;
        report.reason = e.what();
    } catch (const std::exception &e) {
        report.checks.push_back({"backend.init", file, {}});
        report.checks.back().findings.fail(e.what());
        report.reason = "the backend does not initialise; no device was checked";
        return report;
    }

    if (backend) {
        uint32_t devices = 0;
        try {
            devices = backend->device_count();
        } catch (const std::exception &e) {
            report.checks.push_back({"backend.device-count", file, {}});
            report.checks.back().findings.fail(e.what());
        }
        for (uint32_t i = 0; i < devices; ++i) {
            const Target target{report.backend + ":" + std::to_string(i), backend, i};
            DeviceSummary summary{target.id, "", "", {}};
            try {
                const vrb_device_info info = backend->describe(i);
                summary.name.assign(info.name, strnlen(info.name, sizeof info.name));
                summary.api.assign(info.api, strnlen(info.api, sizeof info.api));
                const auto device = backend->open(i);
                const auto kinds = device->memory_kinds();
                for (uint32_t k = 0; k < kinds.size(); ++k)
                    summary.memory_kinds.push_back(fmt::format(
                        "{} ({})", std::string(kinds[k].name, strnlen(kinds[k].name, sizeof kinds[k].name)), k));
            } catch (const std::exception &) {
                // device.description says what is wrong.
            }
            report.devices.push_back(std::move(summary));
            for (const DeviceCheck &check : device_checks()) {
                if (check.large && !options.large) continue;
                CheckOutcome outcome{std::string(check.name), target.id, {}};
                announce(check.name, target.id);
                try {
                    check.run(target, outcome.findings);
                } catch (const std::exception &e) {
                    outcome.findings.fail(e.what());
                }
                report.checks.push_back(std::move(outcome));
            }
        }
        if (devices == 0 && report.checks.back().name != "backend.device-count") {
            report.outcome = Report::Outcome::unavailable;
            report.reason = "the backend initialised but reports no device";
        }
        backend.reset();
    }
    for (const ModuleCheck &check : module_checks())
        if (!check.name.starts_with("abi.")) run_module_check(check);
    if (report.outcome != Report::Outcome::unavailable)
        report.outcome = report.failed_checks() == 0 ? Report::Outcome::passed : Report::Outcome::failed;
    else if (report.failed_checks() > 0)
        report.outcome = Report::Outcome::failed;
    return report;
}

std::string report_text(const Report &report)
{
    std::string text = fmt::format("module  {}\n", report.module.string());
    if (!report.backend.empty())
        text += fmt::format("backend {} {} (ABI {}.{}): {}\n", report.backend, report.module_version,
                            VRB_VERSION_MAJOR(report.abi_version), VRB_VERSION_MINOR(report.abi_version),
                            report.description);
    if (report.build == ModuleBuild::unoptimized) text += fmt::format("build   {}\n", unoptimized_warning());
    for (const DeviceSummary &d : report.devices)
        text += fmt::format("device  {}: {} ({}), memory kinds: {}\n", d.id, d.name, d.api,
                            d.memory_kinds.empty() ? "none" : fmt::format("{}", fmt::join(d.memory_kinds, ", ")));
    text += "\n";
    for (const CheckOutcome &c : report.checks) {
        text += fmt::format("{}  {:<26} {}\n", c.findings.passed() ? "PASS" : "FAIL", c.name, c.scope);
        for (const std::string &f : c.findings.kept())
            text += fmt::format("      {}\n", f);
        for (const std::string &d : c.findings.declined())
            text += fmt::format("      declined by the module, not run: {}\n", d);
        if (c.findings.count() > c.findings.kept().size())
            text += fmt::format("      ... and {} more\n", c.findings.count() - c.findings.kept().size());
    }
    text += "\n";
    const uint64_t failed = report.failed_checks();
    // The last line stands alone in a build log: it names the module and every device.
    std::vector<std::string> ids;
    for (const DeviceSummary &d : report.devices)
        ids.push_back(d.id);
    std::string checked = report.module.filename().string();
    if (!report.backend.empty()) checked += " (backend " + report.backend + ")";
    if (!ids.empty())
        checked += fmt::format(" on {} device{}: {}", ids.size(), ids.size() == 1 ? "" : "s", fmt::join(ids, ", "));
    if (report.build == ModuleBuild::unoptimized) checked += ", built without optimisation (-O0)";
    switch (report.outcome) {
    case Report::Outcome::passed: {
        // A pass says how much of the vocabulary it did not see run.
        std::set<std::string> declined;
        for (const CheckOutcome &c : report.checks)
            declined.insert(c.findings.declined().begin(), c.findings.declined().end());
        text +=
            fmt::format("PASSED: {} checks of {}{}\n", report.checks.size(), checked,
                        declined.empty() ? "" : fmt::format("; {} declined by the module, not run", declined.size()));
        break;
    }
    case Report::Outcome::unavailable:
        text += fmt::format("UNAVAILABLE: {}; the {} module checks passed, no device was checked\n", report.reason,
                            report.checks.size());
        break;
    case Report::Outcome::failed:
        text += fmt::format("FAILED: {} of {} checks of {}{}\n", failed, report.checks.size(), checked,
                            report.reason.empty() ? "" : "; " + report.reason);
        break;
    }
    return text;
}

} // namespace vrb::conformance
