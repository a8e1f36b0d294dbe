// How a module was compiled, as the note the SDK's entry macro puts in it records
// (plugin.h: VRB_DEFINE_BUILD_NOTE): a module built without optimisation measures its
// own loops, not the memory, so list, plugin-check and every result say so.
#pragma once

#include <filesystem>
#include <string_view>

namespace vrb {

enum class ModuleBuild {
    unknown,     // no note: a module of an older SDK, or a table filled by hand without it
    optimized,   // compiled with optimisation (__OPTIMIZE__: -O1 and above, -Os)
    unoptimized, // compiled without (-O0, CMake's Debug or no build type)
};

// Reads the note from the module's file; unknown when it has none or is no ELF file.
ModuleBuild module_build(const std::filesystem::path &file);

// "optimized", "unoptimized", "unknown": the value result sets record.
std::string_view to_string(ModuleBuild build);

// The warning list and plugin-check print for an unoptimized module.
std::string_view unoptimized_warning();

} // namespace vrb
