// Finding backend modules and initialising them.
//
// Search order: each file given with --plugin, then the folder of the executable, then
// ../lib/vrambench beside it, then every folder in VRAMBENCH_PLUGIN_PATH (':'-separated).
// Modules in folders are files named vrambench-*.so. The first module of a name wins;
// a later one of the same name is listed (state "refused") with a note naming both files
// that says the first is used and nothing is wrong. An entry of
// VRAMBENCH_PLUGIN_PATH that is a file or no folder at all is warned about on stderr, not
// silently passed over.
#pragma once

#include <vrambench/core/modules/backend.hpp>

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

// The search order in one sentence, for messages that must say where backends come from.
std::string_view plugin_search_hint();

// What is wrong with the entries of VRAMBENCH_PLUGIN_PATH, one message each: an entry
// that is a file (modules named one by one go with --plugin) or a folder that is missing.
std::vector<std::string> plugin_path_problems();
std::vector<BackendEntry> discover_backends(const DiscoveryOptions &options);

// The module files discovery would open, in search order, each once.
std::vector<std::filesystem::path> module_files(const DiscoveryOptions &options);

// "vrambench-cuda.so" -> "cuda": the name a module has before it is loaded.
std::string name_from_file(const std::filesystem::path &file);

// Loads and initialises one module; never throws: failures are in the entry.
BackendEntry open_backend(const std::filesystem::path &file);

std::string_view to_string(BackendEntry::State state);

// The note for a module skipped because `first` already holds its name.
std::string duplicate_reason(const std::string &name, const std::filesystem::path &first,
                             const std::filesystem::path &again);

} // namespace vrb
