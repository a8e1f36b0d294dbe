// Any bytes as a result file: refused with a UsageError or accepted and validated,
// never a crash, a hang or an undefined operation.
#include <vrambench/core/error.hpp>
#include <vrambench/core/results/schema.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        const nlohmann::json document = vrb::parse_result_text(text, "fuzz");
        (void)vrb::validate_result_json(document);
    } catch (const vrb::UsageError &) {
    }
    return 0;
}
