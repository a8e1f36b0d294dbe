// The conformance kit (conformance/, the same checks `vrambench plugin-check` runs) on
// every built backend, every device, every memory kind kernels can use. A backend
// whose runtime or device is missing is skipped with its reason.
//
// The modules checked: every vrambench-*.so where the CLI finds backends, the backend
// template (plugins/template, built beside the tests and never installed), and each
// file named in VRAMBENCH_CONFORMANCE_MODULES (':'-separated).
#include <vrambench/conformance/kit.hpp>
#include <vrambench/core/modules/registry.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string_view>
#include <vector>

using namespace vrb;
using conformance::Findings;

namespace {

// A module named explicitly (the template, or a vendor's through the environment).
// Failing to load is a test failure for every module; only a required one must also be
// available: a vendor's module on a machine without its GPU is skipped with the reason.
struct NamedModule {
    std::filesystem::path file;
    bool required;
};

std::vector<NamedModule> named_modules()
{
    std::vector<NamedModule> named;
#ifdef VRAMBENCH_TEMPLATE_MODULE
    named.push_back({VRAMBENCH_TEMPLATE_MODULE, true});
#endif
    if (const char *env = std::getenv("VRAMBENCH_CONFORMANCE_MODULES")) {
        std::string_view rest = env;
        while (!rest.empty()) {
            const auto colon = rest.find(':');
            const auto part = rest.substr(0, colon);
            if (!part.empty()) named.push_back({std::string(part), false});
            if (colon == std::string_view::npos) break;
            rest.remove_prefix(colon + 1);
        }
    }
    return named;
}

struct Discovery {
    std::vector<std::filesystem::path> modules; // every module file found, loadable or not
    std::vector<conformance::Target> targets;
    std::vector<std::string> problems; // modules that did not load, or required ones unavailable
};

// Every available backend's every device, found once; each module file opened once.
const Discovery &discovery()
{
    static const Discovery found = [] {
        Discovery d;
        std::set<std::filesystem::path> seen;
        auto add = [&](const std::filesystem::path &file, bool required) {
            std::error_code error;
            const auto canonical = std::filesystem::weakly_canonical(file, error);
            if (!seen.insert(error ? file : canonical).second) return;
            d.modules.push_back(file);
            BackendEntry entry = open_backend(file);
            const bool failed = entry.state == BackendEntry::State::failed;
            if (entry.state != BackendEntry::State::available) {
                std::printf("[ skipped  ] backend %s: %s\n", entry.name.c_str(), entry.reason.c_str());
                // A module that does not load at all is broken wherever it was found; an
                // unavailable one is only wrong when it was required.
                if (failed) d.problems.push_back(entry.reason);
                if (required && !failed) d.problems.push_back(file.string() + " is unavailable: " + entry.reason);
                return;
            }
            for (uint32_t i = 0; i < entry.backend->device_count(); ++i)
                d.targets.push_back({entry.name + ":" + std::to_string(i), entry.backend, i});
        };
        for (const auto &item : std::filesystem::directory_iterator(VRAMBENCH_MODULE_DIR)) {
            const std::string file = item.path().filename().string();
            if (file.rfind("vrambench-", 0) != 0 || item.path().extension() != ".so") continue;
            add(item.path(), false);
        }
        for (const NamedModule &m : named_modules())
            add(m.file, m.required);
        return d;
    }();
    return found;
}

void report(const std::string &check, const std::string &scope, const Findings &findings)
{
    for (const std::string &f : findings.kept())
        ADD_FAILURE() << check << " on " << scope << ": " << f;
    if (findings.count() > findings.kept().size())
        ADD_FAILURE() << check << " on " << scope << ": and " << findings.count() - findings.kept().size() << " more";
}

std::vector<std::string> device_check_names()
{
    std::vector<std::string> names;
    for (const auto &check : conformance::device_checks())
        names.emplace_back(check.name);
    return names;
}

std::vector<std::string> module_check_names()
{
    std::vector<std::string> names;
    for (const auto &check : conformance::module_checks())
        names.emplace_back(check.name);
    return names;
}

// "ops.read-dot" -> "ops_read_dot": a test name GoogleTest accepts.
std::string test_name(const testing::TestParamInfo<std::string> &info)
{
    std::string name = info.param;
    std::replace_if(
        name.begin(), name.end(), [](char c) { return c == '.' || c == '-'; }, '_');
    return name;
}

class DeviceCheck : public testing::TestWithParam<std::string> {};
class ModuleCheck : public testing::TestWithParam<std::string> {};

} // namespace

TEST_P(DeviceCheck, PassesOnEveryDeviceOfEveryBackend)
{
    const auto &targets = discovery().targets;
    if (targets.empty()) GTEST_SKIP() << "no backend with a device is available here";
    const conformance::DeviceCheck *check = conformance::find_device_check(GetParam());
    ASSERT_NE(check, nullptr);
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
    // Past 2^22 lanes on every backend is minutes of sanitized host checks; the release
    // build runs the same check on the same modules.
    if (check->large) GTEST_SKIP() << "the release build runs the large counts";
#endif
#endif
    for (const conformance::Target &t : targets) {
        Findings findings;
        check->run(t, findings);
        report(GetParam(), t.id, findings);
    }
}

INSTANTIATE_TEST_SUITE_P(Conformance, DeviceCheck, testing::ValuesIn(device_check_names()), test_name);

TEST_P(ModuleCheck, PassesForEveryModuleFound)
{
    const auto &modules = discovery().modules;
    ASSERT_FALSE(modules.empty()) << "no module found in " << VRAMBENCH_MODULE_DIR;
    const auto &checks = conformance::module_checks();
    const auto check = std::find_if(checks.begin(), checks.end(), [](const auto &c) { return c.name == GetParam(); });
    ASSERT_NE(check, checks.end());
    for (const auto &module : modules) {
        Findings findings;
        check->run(module, findings);
        report(GetParam(), module.filename().string(), findings);
    }
}

INSTANTIATE_TEST_SUITE_P(Conformance, ModuleCheck, testing::ValuesIn(module_check_names()), test_name);

TEST(Conformance, EveryModuleNamedForTheKitLoadsAndTheTemplateRuns)
{
    for (const std::string &problem : discovery().problems)
        ADD_FAILURE() << problem;
#ifdef VRAMBENCH_TEMPLATE_MODULE
    const auto &targets = discovery().targets;
    const bool template_found =
        std::any_of(targets.begin(), targets.end(), [](const auto &t) { return t.id == "template:0"; });
    EXPECT_TRUE(template_found) << "the backend template at " << VRAMBENCH_TEMPLATE_MODULE << " has no device";
#endif
}

// The semaphore check on a module whose semaphores are futex counters: it passes, and it
// fails the same module once its device-side waits do nothing.
TEST(Conformance, TheSemaphoreCheckPassesRealTimelinesAndFailsDeviceWaitsThatDoNotWait)
{
    const conformance::DeviceCheck *check = conformance::find_device_check("interop.semaphores");
    ASSERT_NE(check, nullptr);
    const vrb::BackendEntry entry = vrb::open_backend(MOCK_SEMA_PATH);
    ASSERT_TRUE(entry.backend) << entry.reason;
    const conformance::Target target{"sema:0", entry.backend, 0};
    Findings sound;
    check->run(target, sound);
    report("interop.semaphores", target.id, sound);

    ::setenv("VRAMBENCH_MOCK_IGNORE_WAITS", "sema", 1);
    Findings broken;
    check->run(target, broken);
    ::unsetenv("VRAMBENCH_MOCK_IGNORE_WAITS");
    ASSERT_FALSE(broken.passed()) << "a device-side wait that does not wait passed the check";
    EXPECT_NE(broken.kept().at(0).find("behind a device-side wait"), std::string::npos) << broken.kept().at(0);

    ::setenv("VRAMBENCH_MOCK_NO_EXPORT", "sema", 1);
    Findings declined;
    check->run(target, declined);
    ::unsetenv("VRAMBENCH_MOCK_NO_EXPORT");
    EXPECT_TRUE(declined.passed()) << "a device may decline to create an exportable semaphore, saying why";
}
