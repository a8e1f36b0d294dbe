// Any text as fit's --memory, --offload or --bandwidth, and any workload within fit's
// bounds: a UsageError or an answer whose JSON holds only finite, unwrapped numbers.
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/catalogue.hpp>
#include <vrambench/core/fit/fit.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void check(const nlohmann::json &j, bool margin)
{
    if (j.is_structured()) {
        for (const auto &[key, value] : j.items())
            check(value, key == "margin_bytes");
        return;
    }
    if (!j.is_number()) return;
    const double v = j.get<double>();
    if (!std::isfinite(v) || (v < 0 && !margin)) std::abort();
}

// A value in [1, most] from eight bytes.
double within(const uint8_t *data, double most)
{
    uint64_t raw = 0;
    std::memcpy(&raw, data, sizeof raw);
    return std::floor(1 + double(raw % uint64_t(most)));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        const double bytes = vrb::fit::parse_fit_bytes(text, "--memory");
        if (!(bytes > 0) || bytes > vrb::fit::most_memory_bytes) std::abort();
    } catch (const vrb::UsageError &) {
    }
    try {
        const double rate = vrb::fit::parse_bandwidth(text);
        if (!(rate > 0) || rate > 1e6) std::abort();
    } catch (const vrb::UsageError &) {
    }
    if (size < 26) return 0;
    using namespace vrb::fit;
    const auto &catalogue = model_catalogue();
    const Model &model = catalogue[data[0] % catalogue.size()].model;
    Workload w;
    w.mode = data[1] & 1 ? Mode::training : Mode::inference;
    w.dtype = w.mode == Mode::training ? DType::fp32 : DType::int4;
    w.attention = data[1] & 2 ? Attention::eager : Attention::memory_efficient;
    w.checkpointing = data[1] & 4;
    w.batch = within(data + 2, 1 << 24);
    w.context = within(data + 10, most_context);
    w.cards = data[1] & 8 ? within(data + 18, 1 << 20) : 1;
    const Card card = card_by_hand(most_memory_bytes, 1e6);
    try {
        const bool offload = (data[1] & 16) && w.mode == Mode::inference && w.cards == 1;
        const Answer a = fit_model(model, w, card, offload ? std::optional(OffloadRequest{true, 0}) : std::nullopt);
        check(fit_json(a), false);
    } catch (const vrb::UsageError &) {
    }
    return 0;
}
