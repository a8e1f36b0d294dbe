// The conformance kit: what a backend module must do to be used by vrambench, checked
// against the module itself. `vrambench plugin-check MODULE.so` and the GoogleTest suite
// in tests/conformance run the same checks.
//
// Module checks look at the module as the loader sees it (its entry, its negotiation
// answers, its function table). Device checks run the vocabulary on one opened device
// and compare every answer with arithmetic done here on the host, on every memory kind
// kernels can use, and name what went wrong as a plugin author needs it: the operation
// ("copy"), the element width, the memory kind, the count, and the first wrong lane
// with its expected and actual values.
#pragma once

#include <vrambench/core/modules/backend.hpp>
#include <vrambench/core/modules/build_note.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace vrb::conformance {

// What one check found wrong. Past a limit, further failures are counted, not kept, so
// a backend that gets everything wrong still yields a readable report. Beside them, what
// the module declined (op_supported, or an optional slot answering unsupported) and the
// check therefore did not run: no
// failure, but the report names it, so a pass never hides what went untested.
class Findings {
  public:
    void fail(std::string what);
    // "dot at 16 bytes on memory kind \"device\" (0)"; each named once.
    void decline(std::string what);
    bool passed() const { return count_ == 0; }
    uint64_t count() const { return count_; }
    const std::vector<std::string> &kept() const { return kept_; }
    const std::vector<std::string> &declined() const { return declined_; }

  private:
    std::vector<std::string> kept_, declined_;
    uint64_t count_ = 0;
};

// The device one device check runs on, with the backend that opened it.
struct Target {
    std::string id; // "host:0"
    std::shared_ptr<Backend> backend;
    uint32_t index = 0;
};

struct ModuleCheck {
    std::string_view name;    // "abi.negotiation"
    std::string_view summary; // one line: what it holds the module to
    void (*run)(const std::filesystem::path &module, Findings &findings);
};

struct DeviceCheck {
    std::string_view name;
    std::string_view summary;
    void (*run)(const Target &target, Findings &findings);
    bool large = false; // run only when asked (KitOptions::large): minutes on a slow device
};

struct KitOptions {
    bool large = false; // also the checks of counts past 2^22 lanes
};

// In the order they run: the "abi." module checks first (a module failing them is not
// run further), then every device check on each device, then the other module checks.
const std::vector<ModuleCheck> &module_checks();
const std::vector<DeviceCheck> &device_checks();
const DeviceCheck *find_device_check(std::string_view name);

struct CheckOutcome {
    std::string name;
    std::string scope; // the module's file name, or the device id
    Findings findings;
};

struct DeviceSummary {
    std::string id, name, api;
    std::vector<std::string> memory_kinds; // "device (0)", with the index the ABI uses
};

struct Report {
    std::filesystem::path module;
    std::string backend, description, module_version;
    uint32_t abi_version = 0;                 // as the module answered
    ModuleBuild build = ModuleBuild::unknown; // from the module file's build note
    enum class Outcome { passed, failed, unavailable } outcome = Outcome::failed;
    std::string reason; // why unavailable, or why the kit stopped early
    std::vector<DeviceSummary> devices;
    std::vector<CheckOutcome> checks;
    uint64_t failed_checks() const;
};

// Called as each check starts, so a caller watching from another process can say
// where a module that crashed or hung the kit was.
using CheckStarting = std::function<void(std::string_view check, std::string_view scope)>;

// Loads the module and runs every check; never throws for a faulty module.
Report check_module(const std::filesystem::path &module, const CheckStarting &starting = {},
                    const KitOptions &options = {});

// The report as a person reads it: the module, each device, PASS or FAIL per check with
// the reasons, and the outcome on the last line.
std::string report_text(const Report &report);

} // namespace vrb::conformance
