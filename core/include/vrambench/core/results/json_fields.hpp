// Fields read from result documents that came from a file: any of them may be missing,
// null (the schema lets most be) or of another type inside free-form objects (parameters,
// extra), and a reader falls back instead of throwing. nlohmann's value(key, fallback)
// throws when the key is there but null, so readers of result sets use these instead.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace vrb {

// object[key] when `object` is an object whose `key` holds a string, else `fallback`.
inline std::string text_or(const nlohmann::json &object, const char *key, const std::string &fallback)
{
    return object.is_object() && object.contains(key) && object[key].is_string() ? object[key].get<std::string>()
                                                                                 : fallback;
}

// object[key] when it holds a number, else `fallback`.
inline double number_or(const nlohmann::json &object, const char *key, double fallback)
{
    return object.is_object() && object.contains(key) && object[key].is_number() ? object[key].get<double>()
                                                                                 : fallback;
}

// object[key] when it holds a non-negative integer, else `fallback`.
inline uint64_t count_or(const nlohmann::json &object, const char *key, uint64_t fallback)
{
    if (!object.is_object() || !object.contains(key)) return fallback;
    const nlohmann::json &v = object[key];
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
    return fallback;
}

// object[key] when it holds a boolean, else `fallback`.
inline bool flag_or(const nlohmann::json &object, const char *key, bool fallback)
{
    return object.is_object() && object.contains(key) && object[key].is_boolean() ? object[key].get<bool>()
                                                                                  : fallback;
}

// object[key] when it is an object (an array), else an empty one that lives forever.
inline const nlohmann::json &object_or_empty(const nlohmann::json &object, const char *key)
{
    static const nlohmann::json empty = nlohmann::json::object();
    return object.is_object() && object.contains(key) && object[key].is_object() ? object[key] : empty;
}
inline const nlohmann::json &array_or_empty(const nlohmann::json &object, const char *key)
{
    static const nlohmann::json empty = nlohmann::json::array();
    return object.is_object() && object.contains(key) && object[key].is_array() ? object[key] : empty;
}

} // namespace vrb
