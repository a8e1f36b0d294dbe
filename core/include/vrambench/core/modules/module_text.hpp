// Text a module hands over in a fixed-size char array (device names, memory kinds,
// cache kinds, properties). A module may fill the array to its last byte without a NUL,
// so the host never reads such a field as a C string: it would run on into the next.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace vrb {

// The field up to its NUL or its end, whichever comes first.
template <std::size_t N> std::string_view module_text(const char (&text)[N])
{
    return {text, strnlen(text, N)};
}

template <std::size_t N> std::string module_string(const char (&text)[N])
{
    return std::string(module_text(text));
}

} // namespace vrb
