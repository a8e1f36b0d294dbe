#include <vrambench/core/version.hpp>

#include "vrambench_git_commit.h"

// Both come from the build (core/CMakeLists.txt); a build without them is a broken build.
#ifndef VRAMBENCH_VERSION
#error "VRAMBENCH_VERSION must be defined by the build"
#endif

namespace vrb {

std::string_view tool_version()
{
    return VRAMBENCH_VERSION;
}

std::string_view tool_git_commit()
{
    return VRAMBENCH_GIT_COMMIT;
}

} // namespace vrb
