// Finding backend modules and initialising them.
//
// Search order: each file given with --plugin, then the folder of the executable, then
// ../lib/vrambench beside it, then every folder in VRAMBENCH_PLUGIN_PATH (':'-separated).
// Modules in folders are files named vrambench-*.so. The first module of a name wins;
// a later one of the same name is listed as refused, naming both files.
#pragma once

#include <vrambench/core/backend.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vrb {

struct BackendEntry {
    enum class State { available, unavailable, failed, refused };
    std::string name; // backend name, or the file stem when it failed to load
    std::filesystem::path file;
    State state = State::failed;
    std::string reason;               // why unavailable or failed
    std::shared_ptr<Backend> backend; // set when available
};

struct DiscoveryOptions {
    std::vector<std::filesystem::path> extra_plugins; // --plugin FILE
    bool search_default_paths = true;                 // off: only extra_plugins
};

std::vector<std::filesystem::path> plugin_search_folders();
std::vector<BackendEntry> discover_backends(const DiscoveryOptions &options);

// The module files discovery would open, in search order, each once.
std::vector<std::filesystem::path> module_files(const DiscoveryOptions &options);

// "vrambench-cuda.so" -> "cuda": the name a module has before it is loaded.
std::string name_from_file(const std::filesystem::path &file);

// Loads and initialises one module; never throws: failures are in the entry.
BackendEntry open_backend(const std::filesystem::path &file);

std::string_view to_string(BackendEntry::State state);

// Why a module is refused for a name that `first` already holds.
std::string duplicate_reason(const std::string &name, const std::filesystem::path &first,
                             const std::filesystem::path &again);

} // namespace vrb
