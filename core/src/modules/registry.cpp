#include <vrambench/core/modules/registry.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <unistd.h>

namespace vrb {

namespace {

std::filesystem::path executable_folder()
{
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : self.parent_path();
}

bool is_module_name(const std::filesystem::path &p)
{
    const std::string name = p.filename().string();
    return name.rfind("vrambench-", 0) == 0 && p.extension() == ".so";
}

} // namespace

std::string_view to_string(BackendEntry::State state)
{
    switch (state) {
    case BackendEntry::State::available: return "available";
    case BackendEntry::State::unavailable: return "unavailable";
    case BackendEntry::State::failed: return "failed";
    case BackendEntry::State::refused: return "refused";
    }
    return "failed";
}

namespace {

std::vector<std::string> plugin_path_entries()
{
    std::vector<std::string> entries;
    if (const char *env = std::getenv("VRAMBENCH_PLUGIN_PATH")) {
        std::string_view rest = env;
        while (!rest.empty()) {
            const auto colon = rest.find(':');
            const auto part = rest.substr(0, colon);
            if (!part.empty()) entries.emplace_back(part);
            if (colon == std::string_view::npos) break;
            rest.remove_prefix(colon + 1);
        }
    }
    return entries;
}

} // namespace

std::string_view plugin_search_hint()
{
    return "backends are the vrambench-NAME.so modules next to the vrambench executable, in ../lib/vrambench "
           "beside it, and in the folders of VRAMBENCH_PLUGIN_PATH (':'-separated); name another module file with "
           "--plugin FILE";
}

std::vector<std::string> plugin_path_problems()
{
    std::vector<std::string> problems;
    for (const std::string &entry : plugin_path_entries()) {
        std::error_code ec;
        const auto status = std::filesystem::status(entry, ec);
        if (std::filesystem::is_directory(status)) continue;
        if (std::filesystem::exists(status))
            problems.push_back(fmt::format("VRAMBENCH_PLUGIN_PATH entry '{}' is a file, not a folder: name a module "
                                           "file with --plugin, or put its folder in the variable",
                                           entry));
        else
            problems.push_back(
                fmt::format("VRAMBENCH_PLUGIN_PATH entry '{}' does not exist: no module is looked for there", entry));
    }
    return problems;
}

std::vector<std::filesystem::path> plugin_search_folders()
{
    std::vector<std::filesystem::path> folders;
    if (const auto exe = executable_folder(); !exe.empty()) {
        folders.push_back(exe);
        folders.push_back(exe / ".." / "lib" / "vrambench");
    }
    for (const std::string &entry : plugin_path_entries())
        folders.emplace_back(entry);
    return folders;
}

BackendEntry open_backend(const std::filesystem::path &file)
{
    BackendEntry entry;
    entry.file = file;
    entry.name = name_from_file(file);
    try {
        auto module = Module::load(file);
        entry.name = module->name();
        try {
            auto backend = Backend::create(module, default_host_table());
            // A count past any real machine refuses the module here, before anything is sized by it.
            backend->device_count();
            entry.backend = std::move(backend);
            entry.state = BackendEntry::State::available;
        } catch (const UnavailableError &e) {
            entry.state = BackendEntry::State::unavailable;
            entry.reason = e.what();
        }
    } catch (const std::exception &e) {
        entry.state = BackendEntry::State::failed;
        entry.reason = e.what();
    }
    return entry;
}

std::string name_from_file(const std::filesystem::path &file)
{
    std::string name = file.stem().string();
    if (name.rfind("vrambench-", 0) == 0) name = name.substr(10);
    return name;
}

std::vector<std::filesystem::path> module_files(const DiscoveryOptions &options)
{
    // Files given by hand come first, so they win over an installed module of the same name.
    std::vector<std::filesystem::path> files = options.extra_plugins;
    if (options.search_default_paths) {
        for (const std::string &problem : plugin_path_problems())
            std::fprintf(stderr, "vrambench: warning: %s\n", problem.c_str());
        for (const auto &folder : plugin_search_folders()) {
            std::error_code ec;
            if (!std::filesystem::is_directory(folder, ec)) continue;
            std::vector<std::filesystem::path> here;
            for (const auto &item : std::filesystem::directory_iterator(folder, ec))
                if (is_module_name(item.path())) here.push_back(item.path());
            std::sort(here.begin(), here.end());
            files.insert(files.end(), here.begin(), here.end());
        }
    }
    std::vector<std::filesystem::path> unique;
    std::set<std::filesystem::path> seen;
    for (const auto &file : files) {
        std::error_code ec;
        const auto canonical = std::filesystem::weakly_canonical(file, ec);
        if (seen.insert(ec ? file : canonical).second) unique.push_back(file);
    }
    return unique;
}

std::string duplicate_reason(const std::string &name, const std::filesystem::path &first,
                             const std::filesystem::path &again)
{
    // A note, not an error: the same module found twice (--plugin and an installed
    // folder, in an edit-build-run loop) is the normal case, and the first is the one used.
    return fmt::format("another module named '{}' was loaded first, from {}, and is the one used; {} is skipped "
                       "(the first module of a name wins; nothing is wrong)",
                       name, first.string(), again.string());
}

std::vector<BackendEntry> discover_backends(const DiscoveryOptions &options)
{
    std::vector<BackendEntry> entries;
    std::map<std::string, std::filesystem::path> loaded; // name -> the file that won it
    for (const auto &file : module_files(options)) {
        BackendEntry entry = open_backend(file);
        if (entry.state != BackendEntry::State::failed) {
            const auto [first, fresh] = loaded.emplace(entry.name, file);
            if (!fresh) {
                entry.state = BackendEntry::State::refused;
                entry.reason = duplicate_reason(entry.name, first->second, file);
                entry.backend.reset();
            }
        }
        entries.push_back(std::move(entry));
    }
    return entries;
}

} // namespace vrb
