// The build's version and commit: what --version prints and every result set records.
#pragma once

#include <string_view>

namespace vrb {

std::string_view tool_version();    // the project's version in CMakeLists.txt, "0.1.0"
std::string_view tool_git_commit(); // the commit the sources were at when built, or "unknown"

} // namespace vrb
