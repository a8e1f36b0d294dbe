// Linked into every test program that calls the Vulkan loader itself rather than through
// the module: in sanitized builds, the loader's drivers and layers are kept mapped from
// before main() until exit, as the module keeps them (loader_libraries.hpp says why).
#include "loader_libraries.hpp"

#include <cstdlib>

#if defined(VRAMBENCH_SANITIZED)
namespace {
const int pinned = vrb::vulkan::pin_libraries(
    vrb::vulkan::loader_libraries({"VK_LAYER_KHRONOS_validation"}, [](const char *name) { return std::getenv(name); }));
} // namespace
#endif
