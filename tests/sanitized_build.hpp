// Whether this test binary was built with AddressSanitizer: such a build runs the
// readers many times slower, so tests that walk every variant of a document walk a
// share of them there and every one in the release build.
#pragma once

#include <cstddef>

namespace vrb::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized_build = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool sanitized_build = true;
#else
inline constexpr bool sanitized_build = false;
#endif
#else
inline constexpr bool sanitized_build = false;
#endif

// Every `step`-th variant in the sanitized build, every one in the release build.
constexpr std::size_t variant_step(std::size_t step)
{
    return sanitized_build ? step : 1;
}

} // namespace vrb::test
