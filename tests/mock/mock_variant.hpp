// Which variant a mock module plays. A mock source (mock_plugin.cpp, faulty_plugin.cpp,
// memfd_plugin.cpp) is compiled once and linked once per variant with a one-line source
// that defines vrambench_mock_variant as the variant's name (vrambench_add_mock_variant
// in tests/CMakeLists.txt writes it), so each module reads its behaviour from that name.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>

// Hidden: each module has its own, and the host must not see it among the exports.
extern "C" __attribute__((visibility("hidden"))) const char vrambench_mock_variant[];

namespace vrb::mock {

// The variant named by this module's vrambench_mock_variant. A name the source does not
// list is a build that disagrees with it: the module ends its process when loaded,
// rather than playing some other variant under that name and passing its tests.
template <typename Variant, std::size_t N>
Variant variant_of_module(const std::pair<std::string_view, Variant> (&names)[N])
{
    for (const auto &[name, variant] : names)
        if (name == vrambench_mock_variant) return variant;
    std::fprintf(stderr, "mock module: no variant named \"%s\"\n", vrambench_mock_variant);
    std::abort();
}

} // namespace vrb::mock
