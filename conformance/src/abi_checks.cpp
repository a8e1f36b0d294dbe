// The module as the loader meets it: its entry symbol, its answers to hosts of other
// versions, and its function table. These call the entry directly, as no host would,
// to offer the versions a host of another release offers.
#include "checks.hpp"

#include <fmt/format.h>

#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <string_view>

namespace vrb::conformance {

namespace {

struct LibraryCloser {
    void operator()(void *handle) const { dlclose(handle); }
};
using Library = std::unique_ptr<void, LibraryCloser>;

// RTLD_NODELETE: the kit may be checking a module the process also loaded through the
// core's loader; unloading it under that loader's feet is not the kit's business.
Library open_library(const std::filesystem::path &module, Findings &findings)
{
    Library library(dlopen(module.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE));
    if (!library) {
        const char *why = dlerror();
        findings.fail(fmt::format("not a loadable library: {}", why ? why : "dlopen failed"));
    }
    return library;
}

vrb_plugin_entry_fn find_entry(void *library)
{
    dlerror();
    return reinterpret_cast<vrb_plugin_entry_fn>(dlsym(library, VRB_ENTRY_SYMBOL));
}

std::string version_text(uint32_t v)
{
    return fmt::format("{}.{}", VRB_VERSION_MAJOR(v), VRB_VERSION_MINOR(v));
}

struct Answer {
    vrb_status status;
    vrb_negotiation negotiation;
};

Answer offer(vrb_plugin_entry_fn entry, uint32_t host_version)
{
    Answer a{};
    a.negotiation.struct_size = sizeof a.negotiation;
    a.negotiation.host_version = host_version;
    a.status = entry(&a.negotiation);
    a.negotiation.message[sizeof a.negotiation.message - 1] = '\0';
    return a;
}

std::string refusal(const Answer &a)
{
    return fmt::format("refused ({}, module version {}{}{})", to_string(a.status),
                       version_text(a.negotiation.module_version), a.negotiation.message[0] ? ": " : "",
                       a.negotiation.message);
}

// A host of the same major must be served, whatever its minor: minors only append.
void expect_served(Findings &findings, vrb_plugin_entry_fn entry, uint32_t host_version, std::string_view which)
{
    const Answer a = offer(entry, host_version);
    const std::string offered = fmt::format("offered ABI {} ({})", version_text(host_version), which);
    if (a.status != VRB_OK) {
        findings.fail(fmt::format("{}: {}", offered, refusal(a)));
        return;
    }
    const uint32_t v = a.negotiation.module_version;
    if (VRB_VERSION_MAJOR(v) != VRB_VERSION_MAJOR(host_version))
        findings.fail(fmt::format("{}: answered {}; the major must be the host's, or the module must refuse with "
                                  "VRB_ERROR_VERSION",
                                  offered, version_text(v)));
    if (!a.negotiation.table) findings.fail(fmt::format("{}: answered VRB_OK without a function table", offered));
}

} // namespace

void check_entry(const std::filesystem::path &module, Findings &findings)
{
    std::error_code error;
    if (!std::filesystem::is_regular_file(module, error)) {
        findings.fail(fmt::format("{}: no such file", module.string()));
        return;
    }
    const Library library = open_library(module, findings);
    if (!library) return;
    if (!find_entry(library.get()))
        findings.fail(fmt::format("the entry symbol {} is not exported (extern \"C\" VRB_EXPORT, or "
                                  "VRB_DEFINE_PLUGIN_ENTRY)",
                                  VRB_ENTRY_SYMBOL));
}

void check_negotiation(const std::filesystem::path &module, Findings &findings)
{
    const Library library = open_library(module, findings);
    if (!library) return;
    const vrb_plugin_entry_fn entry = find_entry(library.get());
    if (!entry) {
        findings.fail(fmt::format("no entry symbol {}", VRB_ENTRY_SYMBOL));
        return;
    }
    expect_served(findings, entry, VRB_ABI_VERSION, "this host's");
    expect_served(findings, entry, VRB_MAKE_VERSION(VRB_ABI_VERSION_MAJOR, VRB_ABI_VERSION_MINOR + 1), "a newer minor");
    if (VRB_ABI_VERSION_MINOR > 0)
        expect_served(findings, entry, VRB_MAKE_VERSION(VRB_ABI_VERSION_MAJOR, 0), "an older minor");

    // A host of the next major: refuse, or answer this major for the host to refuse.
    const uint32_t next_major = VRB_MAKE_VERSION(VRB_ABI_VERSION_MAJOR + 1, 0);
    const Answer next = offer(entry, next_major);
    if (next.status == VRB_OK && VRB_VERSION_MAJOR(next.negotiation.module_version) == VRB_ABI_VERSION_MAJOR + 1)
        findings.fail(fmt::format("offered ABI {}: claimed to speak {}, a version this SDK does not know",
                                  version_text(next_major), version_text(next.negotiation.module_version)));
    else if (next.status != VRB_OK && next.status != VRB_ERROR_VERSION)
        findings.fail(fmt::format("offered ABI {}: {}; a version it cannot serve is VRB_ERROR_VERSION",
                                  version_text(next_major), refusal(next)));

    // The negotiation struct itself grows at its end: a newer host's is longer.
    std::vector<unsigned char> storage(sizeof(vrb_negotiation) + 64, 0);
    vrb_negotiation longer{};
    longer.struct_size = static_cast<uint32_t>(storage.size());
    longer.host_version = VRB_ABI_VERSION;
    std::memcpy(storage.data(), &longer, sizeof longer);
    const vrb_status status = entry(reinterpret_cast<vrb_negotiation *>(storage.data()));
    if (status != VRB_OK)
        findings.fail(
            fmt::format("a newer host's vrb_negotiation of {} bytes: failed ({})", storage.size(), to_string(status)));
}

void check_table(const std::filesystem::path &module, Findings &findings)
{
    const Library library = open_library(module, findings);
    if (!library) return;
    const vrb_plugin_entry_fn entry = find_entry(library.get());
    if (!entry) {
        findings.fail(fmt::format("no entry symbol {}", VRB_ENTRY_SYMBOL));
        return;
    }
    const Answer a = offer(entry, VRB_ABI_VERSION);
    if (a.status != VRB_OK || !a.negotiation.table) {
        findings.fail(a.status != VRB_OK ? "no table: the entry " + refusal(a) : "the entry gave no function table");
        return;
    }
    const vrb_plugin_table &t = *a.negotiation.table;
    const std::size_t required = offsetof(vrb_plugin_table, run) + sizeof t.run;
    if (t.struct_size < required) {
        findings.fail(fmt::format("struct_size {} is too short to hold the required calls ({} bytes, up to run)",
                                  t.struct_size, required));
        return;
    }
    if (VRB_VERSION_MAJOR(t.abi_version) != VRB_ABI_VERSION_MAJOR)
        findings.fail(fmt::format("the table says ABI {}, the entry answered {}", version_text(t.abi_version),
                                  version_text(a.negotiation.module_version)));
    if (!t.name || !*t.name)
        findings.fail("no backend name");
    else if (std::string_view(t.name).find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") !=
             std::string_view::npos)
        findings.fail(
            fmt::format("backend name \"{}\": lower case [a-z0-9_-] only (devices are named NAME:0)", t.name));
    if (!t.description || !*t.description) findings.fail("no description");
    if (!t.module_version) findings.fail("module_version is NULL");

    const struct {
        const char *name;
        bool present;
    } slots[] = {
        {"last_error", t.last_error != nullptr},
        {"init", t.init != nullptr},
        {"shutdown", t.shutdown != nullptr},
        {"device_count", t.device_count != nullptr},
        {"device_describe", t.device_describe != nullptr},
        {"device_open", t.device_open != nullptr},
        {"device_close", t.device_close != nullptr},
        {"memory_kind_count", t.memory_kind_count != nullptr},
        {"memory_kind_describe", t.memory_kind_describe != nullptr},
        {"buffer_alloc", t.buffer_alloc != nullptr},
        {"buffer_free", t.buffer_free != nullptr},
        {"buffer_upload", t.buffer_upload != nullptr},
        {"buffer_download", t.buffer_download != nullptr},
        {"run", t.run != nullptr},
    };
    for (const auto &slot : slots)
        if (!slot.present) findings.fail(fmt::format("the required slot {} is NULL", slot.name));
    if (t.last_error && !t.last_error()) findings.fail("last_error() returned NULL; it must always return a string");
}

} // namespace vrb::conformance
