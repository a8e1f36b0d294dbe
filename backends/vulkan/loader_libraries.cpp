#include "loader_libraries.hpp"

#include <nlohmann/json.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace vrb::vulkan {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_paths(const char *list)
{
    std::vector<std::string> out;
    if (!list) return out;
    std::stringstream in(list);
    std::string part;
    while (std::getline(in, part, ':'))
        if (!part.empty()) out.push_back(part);
    return out;
}

std::string value_or(const Getenv &getenv, const char *name, const std::string &fallback)
{
    const char *value = getenv(name);
    return value && *value ? value : fallback;
}

// The loader's folders for one kind of manifest ("icd.d", "implicit_layer.d", ...), in
// its order: configuration before data, the user's before the system's.
std::vector<fs::path> standard_folders(const std::string &kind, const Getenv &getenv)
{
    const std::string home = value_or(getenv, "HOME", "");
    std::vector<std::string> roots;
    if (const std::string config = value_or(getenv, "XDG_CONFIG_HOME", home.empty() ? "" : home + "/.config");
        !config.empty())
        roots.push_back(config);
    for (const auto &dir : split_paths(value_or(getenv, "XDG_CONFIG_DIRS", "/etc/xdg").c_str()))
        roots.push_back(dir);
    roots.push_back("/etc");
    if (const std::string data = value_or(getenv, "XDG_DATA_HOME", home.empty() ? "" : home + "/.local/share");
        !data.empty())
        roots.push_back(data);
    for (const auto &dir : split_paths(value_or(getenv, "XDG_DATA_DIRS", "/usr/local/share:/usr/share").c_str()))
        roots.push_back(dir);
    std::vector<fs::path> folders;
    for (const auto &root : roots)
        folders.push_back(fs::path(root) / "vulkan" / kind);
    return folders;
}

// The .json files a path names: itself, or those in it when it is a folder, sorted.
std::vector<fs::path> manifests_in(const fs::path &path)
{
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) return {path};
    std::vector<fs::path> out;
    if (!fs::is_directory(path, ec)) return out;
    for (const auto &entry : fs::directory_iterator(path, ec))
        if (entry.path().extension() == ".json") out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

// The manifest's library path as dlopen() should be given it, and its layer name (empty
// for a driver); nothing when the file is not a manifest.
struct Manifest {
    std::string library;
    std::string layer_name;
};

std::vector<Manifest> read_manifest(const fs::path &file)
{
    std::ifstream in(file);
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return {};
    std::vector<nlohmann::json> entries;
    for (const char *key : {"ICD", "layer"})
        if (j.contains(key) && j[key].is_object()) entries.push_back(j[key]);
    if (j.contains("layers") && j["layers"].is_array())
        for (const auto &layer : j["layers"])
            if (layer.is_object()) entries.push_back(layer);
    std::vector<Manifest> out;
    for (const auto &e : entries) {
        if (!e.contains("library_path") || !e["library_path"].is_string()) continue;
        std::string library = e["library_path"].get<std::string>();
        if (library.find('/') != std::string::npos && fs::path(library).is_relative())
            library = (file.parent_path() / library).lexically_normal().string();
        out.push_back({library, e.contains("name") && e["name"].is_string() ? e["name"].get<std::string>() : ""});
    }
    return out;
}

void append_unique(std::vector<std::string> &list, const std::string &item)
{
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

} // namespace

std::vector<std::string> loader_libraries(const std::vector<std::string> &explicit_layers, const Getenv &getenv)
{
    std::vector<fs::path> drivers;
    for (const auto &p : split_paths(getenv("VK_ADD_DRIVER_FILES")))
        drivers.push_back(p);
    const char *only = getenv("VK_DRIVER_FILES");
    if (!only || !*only) only = getenv("VK_ICD_FILENAMES");
    if (only && *only) {
        for (const auto &p : split_paths(only))
            drivers.push_back(p);
    } else {
        for (const auto &folder : standard_folders("icd.d", getenv))
            drivers.push_back(folder);
    }

    std::vector<fs::path> implicit = standard_folders("implicit_layer.d", getenv);
    std::vector<fs::path> explicit_paths;
    for (const auto &p : split_paths(getenv("VK_ADD_LAYER_PATH")))
        explicit_paths.push_back(p);
    if (const char *layer_path = getenv("VK_LAYER_PATH"); layer_path && *layer_path) {
        for (const auto &p : split_paths(layer_path))
            explicit_paths.push_back(p);
    } else {
        for (const auto &folder : standard_folders("explicit_layer.d", getenv))
            explicit_paths.push_back(folder);
    }

    std::vector<std::string> libraries;
    for (const auto &path : drivers)
        for (const auto &file : manifests_in(path))
            for (const auto &m : read_manifest(file))
                append_unique(libraries, m.library);
    for (const auto &path : implicit)
        for (const auto &file : manifests_in(path))
            for (const auto &m : read_manifest(file))
                append_unique(libraries, m.library);
    for (const auto &path : explicit_paths)
        for (const auto &file : manifests_in(path))
            for (const auto &m : read_manifest(file))
                if (std::find(explicit_layers.begin(), explicit_layers.end(), m.layer_name) != explicit_layers.end())
                    append_unique(libraries, m.library);
    return libraries;
}

int pin_libraries(const std::vector<std::string> &libraries)
{
    int pinned = 0;
    for (const auto &library : libraries)
        // The handle is dropped on purpose: RTLD_NODELETE keeps the library mapped
        // whatever later dlclose() calls do.
        if (dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) ++pinned;
    return pinned;
}

} // namespace vrb::vulkan
