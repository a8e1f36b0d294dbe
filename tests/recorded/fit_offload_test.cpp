// Weights held in host memory (--offload), against the published H200 set: what does not
// fit goes to the host, and the decode ceiling is answered over the link (memory.kinds'
// pinned read by the card, else the pinned host-to-device copy) and on the host (a host
// stream read), each with its ratio to the ceiling all in VRAM.
#include <vrambench/core/error.hpp>
#include <vrambench/core/fit/catalogue.hpp>
#include <vrambench/core/fit/fit.hpp>
#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

namespace {

using namespace vrb::fit;
using nlohmann::json;

const json &offload_h200_set()
{
    static const json set =
        vrb::read_result_file(std::string(VRAMBENCH_TEST_DATA) + "/../../results/nvidia-h200-cuda/standard.json");
    return set;
}

const json &host_set()
{
    static const json set =
        vrb::read_result_file(std::string(VRAMBENCH_TEST_DATA) + "/../../results/ci-vm-epyc-zen5-2vcpu/standard.json");
    return set;
}

// The H200, with host RAM's read from the second set as `fit --result A --result B` takes it.
Card h200()
{
    Card card = card_from_result_set(offload_h200_set(), "h200.json", "");
    set_host_read(card, *host_read_in_set(host_set()), "the result set zen5.json");
    return card;
}

Workload fp16()
{
    Workload w;
    w.dtype = DType::fp16;
    w.kv_dtype = DType::fp16;
    w.context = 4096;
    return w;
}

double part(const Answer &a, const std::string &name)
{
    for (const Part &p : a.parts)
        if (p.name == name) return p.bytes;
    return -1;
}

} // namespace

// The set's stream read is 4530 GB/s; the card reads its pinned host memory at 50.9 GB/s
// (memory.kinds), 89 x slower: what the lecture's "ten times slower" is on this machine.
TEST(FitOffload, Llama405bPutsWhatDoesNotFitInHostMemoryAndAnswersBothRoutes)
{
    const Model &m = find_catalogued("llama-3.1-405b")->model;
    const Card card = h200();
    ASSERT_TRUE(card.link_read);
    EXPECT_NEAR(card.link_read->value, 50.913, 0.001);
    EXPECT_EQ(card.link_read->name, "memory.kinds pinned read (the card reading pinned host memory)");
    const Answer all = fit_model(m, fp16(), card);
    ASSERT_FALSE(all.fits);
    const Answer a = fit_model(m, fp16(), card, OffloadRequest{true, 0});
    ASSERT_TRUE(a.offload);
    const Offload &o = *a.offload;
    EXPECT_NEAR(o.bytes, all.total_bytes - card.card_bytes, 1) << "exactly what does not fit";
    EXPECT_TRUE(a.fits);
    EXPECT_NEAR(a.total_bytes, card.card_bytes, 1);
    EXPECT_NEAR(part(a, "weights"), part(all, "weights") - o.bytes, 1);
    const double weights = parameter_count(m) * 2;
    EXPECT_DOUBLE_EQ(o.share, o.bytes / weights);
    // A step reads the offloaded share of the weights it reads from host memory.
    EXPECT_DOUBLE_EQ(o.host_bytes_read_per_step, o.share * a.weight_bytes_read_per_step);
    EXPECT_DOUBLE_EQ(o.card_bytes_read_per_step, a.bytes_read_per_step - o.host_bytes_read_per_step);
    ASSERT_TRUE(o.link && o.host);
    const double card_seconds = o.card_bytes_read_per_step / (card.read_gb_per_s * 1e9);
    EXPECT_DOUBLE_EQ(o.link->tokens_per_second,
                     1 / (card_seconds + o.host_bytes_read_per_step / (card.link_read->value * 1e9)));
    EXPECT_DOUBLE_EQ(o.host->tokens_per_second,
                     1 / (card_seconds + o.host_bytes_read_per_step / (*card.host_read_gb_per_s * 1e9)));
    EXPECT_DOUBLE_EQ(o.link->slower, *a.decode_ceiling / o.link->tokens_per_second);
    EXPECT_GT(o.link->slower, 10) << "the link is 89 x slower than the card's memory";
    EXPECT_EQ(o.host->measured, "the result set zen5.json");
    const std::string table = fit_table(a);
    for (const char *line : {"the card reads the offloaded weights from host memory over its link",
                             "the host computes the offloaded layers from its own memory", "x slower than all in VRAM"})
        EXPECT_NE(table.find(line), std::string::npos) << line << "\n" << table;
    const json j = fit_json(a);
    EXPECT_EQ(j["offload"]["over_the_link"]["figure"], card.link_read->name);
    EXPECT_EQ(j["offload"]["on_the_host"]["device"], "host:0");
}

// Without memory.kinds the pinned host-to-device copy is the link's figure (55.3 GB/s).
TEST(FitOffload, ThePinnedCopyStandsInForTheLinkWithoutMemoryKinds)
{
    json set = offload_h200_set();
    json kept = json::array();
    for (const json &r : set["results"])
        if (r["probe"] != "memory.kinds") kept.push_back(r);
    set["results"] = kept;
    const Card card = card_from_result_set(set, "h200.json", "");
    ASSERT_TRUE(card.link_read);
    EXPECT_EQ(card.link_read->name, "bandwidth.transfer host-to-device pinned");
    EXPECT_NEAR(card.link_read->value, 55.264, 0.001);
    const Answer a = fit_model(find_catalogued("llama-3.1-405b")->model, fp16(), card, OffloadRequest{true, 0});
    ASSERT_TRUE(a.offload && a.offload->link);
    EXPECT_FALSE(a.offload->host) << "the H200 set has no host:0";
    ASSERT_EQ(a.offload->missing.size(), 1u);
    EXPECT_NE(a.offload->missing[0].find("no host:0 stream read"), std::string::npos);
}

// --offload BYTES: that many bytes of the weights, whatever fits.
TEST(FitOffload, AGivenOffloadTakesThatManyBytesOffTheCard)
{
    const Model &m = find_catalogued("llama-2-70b")->model;
    const Card card = h200();
    const Answer all = fit_model(m, fp16(), card);
    EXPECT_TRUE(all.fits) << "llama-2-70b in fp16 fits the H200";
    const Answer a = fit_model(m, fp16(), card, OffloadRequest{false, 20.0 * (1ull << 30)});
    EXPECT_EQ(a.offload->bytes, 20.0 * (1ull << 30));
    EXPECT_DOUBLE_EQ(a.offload->share, 20.0 * (1ull << 30) / (parameter_count(m) * 2));
    EXPECT_NEAR(a.total_bytes, all.total_bytes - 20.0 * (1ull << 30), 1);
    EXPECT_LT(a.offload->link->tokens_per_second, *a.decode_ceiling);
    // Auto offloads nothing when everything fits.
    const Answer automatic = fit_model(m, fp16(), card, OffloadRequest{true, 0});
    EXPECT_EQ(automatic.offload->bytes, 0);
    EXPECT_FALSE(automatic.offload->link);
}

TEST(FitOffload, AnOffloadFitCannotModelIsRefused)
{
    const Model &m = find_catalogued("llama-2-70b")->model;
    const Card card = h200();
    EXPECT_THROW(fit_model(m, fp16(), card, OffloadRequest{false, 1e15}), vrb::UsageError) << "past the weights";
    Workload training = fp16();
    training.mode = Mode::training;
    EXPECT_THROW(fit_model(m, training, card, OffloadRequest{true, 0}), vrb::UsageError);
    Workload split = fp16();
    split.cards = 2;
    EXPECT_THROW(fit_model(m, split, card, OffloadRequest{true, 0}), vrb::UsageError);
}
