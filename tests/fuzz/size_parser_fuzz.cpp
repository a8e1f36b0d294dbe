// Any text as --size or --memory-limit: a number of bytes or a UsageError.
#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        const uint64_t bytes = vrb::parse_size(text);
        if (bytes == 0) std::abort(); // zero is never a valid size
        (void)vrb::format_size(bytes);
    } catch (const vrb::UsageError &) {
    }
    try {
        (void)vrb::parse_memory_limit(text).resolve(1ull << 40);
    } catch (const vrb::UsageError &) {
    }
    return 0;
}
