// fit at the edges of its documented bounds (docs/fit.md, "Bad input"): every number in
// its JSON finite and none wrapped, just inside each bound; just past it, refused.
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/catalogue.hpp>
#include <vrambench/core/fit/fit.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace vrb::fit;
using nlohmann::json;

// Every number in `j` finite, and none negative but the margin (a wrapped integer is).
void expect_sound(const json &j, const std::string &where, std::string &why)
{
    if (j.is_object())
        for (const auto &[key, value] : j.items())
            expect_sound(value, where + "." + key, why);
    else if (j.is_array())
        for (std::size_t i = 0; i < j.size(); ++i)
            expect_sound(j[i], where + "[" + std::to_string(i) + "]", why);
    else if (j.is_number()) {
        const double v = j.get<double>();
        if (!std::isfinite(v)) why += where + " is not finite; ";
        if (v < 0 && where != ".margin_bytes") why += where + " is negative (" + j.dump() + "); ";
    } else if (j.is_null() && where.find("parts") != std::string::npos)
        why += where + " is null; ";
}

// The largest shape a bare count may have: 10^14 parameters, 10,000 layers, 2^20 wide,
// 2^16 heads (each 16 wide).
Model largest_count()
{
    return model_from_count("100T", ShapeOptions{10000, double(1 << 20), double(1 << 16), 0, 0});
}

} // namespace

TEST(FitBounds, EveryNumberIsFiniteAndUnwrappedAtTheEdgesOfTheBounds)
{
    const Card card = card_by_hand(most_memory_bytes, 1e6);
    for (const Model &model : {largest_count(), find_catalogued("mixtral-8x7b")->model})
        for (const double batch : {1.0, double(1 << 24)})
            for (const double context : {1.0, most_context})
                for (const double cards : {1.0, double(1 << 20)})
                    for (const Mode mode : {Mode::inference, Mode::training})
                        for (const Attention attention : {Attention::memory_efficient, Attention::eager}) {
                            Workload w;
                            w.mode = mode;
                            w.dtype = mode == Mode::training ? DType::fp32 : DType::int4;
                            w.kv_dtype = DType::fp32;
                            w.batch = batch;
                            w.context = context;
                            w.cards = cards;
                            w.attention = attention;
                            const Answer a = fit_model(model, w, card);
                            std::string why;
                            expect_sound(fit_json(a), "", why);
                            EXPECT_EQ(why, "")
                                << model.name << " batch " << batch << " context " << context << " cards " << cards
                                << " " << to_string(mode) << " " << to_string(attention);
                        }
}

// 2^24 sequences of 10^6 tokens of LLaMA-65B's KV cache: 4.4e19 B, past what a signed
// 64-bit integer holds, written as the double it is.
TEST(FitBounds, AKvCachePast2To63BytesIsWrittenAsADouble)
{
    Workload w;
    w.batch = 1 << 24;
    w.context = 1e6;
    const Answer a = fit_model(find_catalogued("llama-65b")->model, w, card_by_hand(80.0 * (1ull << 30), 2039));
    const json j = fit_json(a);
    EXPECT_TRUE(j["parts"]["kv_cache"]["bytes"].is_number_float());
    EXPECT_DOUBLE_EQ(j["parts"]["kv_cache"]["bytes"].get<double>(), 2621440.0 * 1e6 * (1 << 24));
    EXPECT_GT(j["total_bytes"].get<double>(), 4.4e19);
    EXPECT_TRUE(j["parts"]["weights"]["bytes"].is_number_integer()) << "exact below 2^53";
}

TEST(FitBounds, JustPastEachBoundIsRefused)
{
    const Model &m = find_catalogued("llama-7b")->model;
    const Card card = card_by_hand(80e9, 2039);
    const auto refused = [&](Workload w) {
        try {
            fit_model(m, w, card);
        } catch (const vrb::UsageError &) {
            return true;
        }
        return false;
    };
    Workload w;
    w.batch = (1 << 24) + 1;
    EXPECT_TRUE(refused(w));
    w = Workload{};
    w.context = most_context + 1;
    EXPECT_TRUE(refused(w));
    w = Workload{};
    w.cards = (1 << 20) + 1;
    EXPECT_TRUE(refused(w));
    EXPECT_THROW(parse_fit_bytes("1024.001TiB", "--memory"), vrb::UsageError);
    EXPECT_EQ(parse_fit_bytes("1024TiB", "--memory"), most_memory_bytes);
}

// The fuzzer's find: 0.08 bytes is positive, but rounds to no byte at all.
TEST(FitBounds, AMemoryThatRoundsToNoByteIsRefusedAndOneByteIsTaken)
{
    EXPECT_THROW(parse_fit_bytes(".08B", "--memory"), vrb::UsageError);
    EXPECT_THROW(parse_fit_bytes("0.4B", "--memory"), vrb::UsageError);
    EXPECT_EQ(parse_fit_bytes("0.5B", "--memory"), 1.0);
    EXPECT_EQ(parse_fit_bytes("1B", "--memory"), 1.0);
}
