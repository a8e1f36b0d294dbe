// Fields read from result documents that came from a file: any of them may be missing
// or of another type, and a reader falls back instead of throwing.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace vrb {

// object[key] when `object` is an object whose `key` holds a string, else `fallback`.
inline std::string text_or(const nlohmann::json &object, const char *key, const std::string &fallback)
{
    return object.is_object() && object.contains(key) && object[key].is_string() ? object[key].get<std::string>()
                                                                                 : fallback;
}

} // namespace vrb
