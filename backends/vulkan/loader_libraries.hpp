// The shared libraries the Vulkan loader opens in this process, found the way the loader
// finds them (its manifest search: LoaderDriverInterface.md and LoaderLayerInterface.md
// of the Vulkan-Loader), and a way to keep them mapped until the process exits.
//
// Why: the loader dlclose()s every driver and layer when the instance is destroyed.
// LeakSanitizer checks at exit, after that: memory a driver's globals still referenced
// then looks lost, and its allocation frames name no library ("<unknown module>"), so no
// suppression by library name can match it. Pinned, the sanitized run is the same on
// every machine. Only sanitized builds pin; pinning changes nothing a user measures.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace vrb::vulkan {

using Getenv = std::function<const char *(const char *)>;

// Every driver manifest's library and every implicit layer's, then those of the explicit
// layers named in `explicit_layers` (e.g. "VK_LAYER_KHRONOS_validation"). A relative
// path with a slash is taken from the manifest's folder, a bare file name is left for
// dlopen() to search, as the loader does. Manifests that cannot be read are skipped, as
// the loader skips them.
std::vector<std::string> loader_libraries(const std::vector<std::string> &explicit_layers, const Getenv &getenv);

// dlopen()s each library with RTLD_NODELETE and returns how many could be opened.
int pin_libraries(const std::vector<std::string> &libraries);

} // namespace vrb::vulkan
