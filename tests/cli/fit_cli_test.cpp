// `vrambench fit` end to end: the answers for LLaMA-65B on an 80 GiB card, a published
// result set of host and lavapipe, the exit codes, and bad input refused in one line.
#include "run_process.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

const std::string published = std::string(VRAMBENCH_SOURCE_DIR) + "/results/ci-vm-epyc-zen5-2vcpu/standard.json";
const std::vector<std::string> by_hand{"--memory", "80GiB", "--bandwidth", "2039GB/s"};

ProcessResult fit(std::vector<std::string> args)
{
    args.insert(args.begin(), "fit");
    return vrambench(args);
}

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string> &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

void expect_refused(const ProcessResult &r, const std::string &needle)
{
    EXPECT_EQ(r.exit_code, 2) << r.err << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(contains(r.err, needle)) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

std::filesystem::path temp_file(const std::string &name, const std::string &text)
{
    const auto dir = std::filesystem::temp_directory_path() / ("vrb-fit-cli-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / name) << text;
    return dir / name;
}

} // namespace

TEST(FitCli, Llama65bInFp16DoesNotFitIn80GiBAndSaysByHowMuch)
{
    const auto r = fit(with({"llama-65b", "--dtype", "fp16"}, by_hand));
    EXPECT_EQ(r.exit_code, 5) << r.err;
    EXPECT_TRUE(contains(r.out, "does not fit: needs 127.14 GiB of the card's 80.00 GiB: 47.14 GiB short")) << r.out;
    EXPECT_TRUE(contains(r.out, "cards of this kind the job needs: 2")) << r.out;
    EXPECT_TRUE(contains(r.out, "decode ceiling: 15.1 tokens/s")) << r.out;
}

TEST(FitCli, Llama65bInInt8FitsIn80GiBAndSaysTheContextItLeaves)
{
    const auto r = fit(with({"llama-65b", "--dtype", "int8"}, by_hand));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "fits: 13.67 GiB to spare")) << r.out;
    EXPECT_TRUE(contains(r.out, "longest context that fits at batch 1: 7108 tokens")) << r.out;
}

TEST(FitCli, TrainingLlama65bSaysHowMany80GiBCardsItNeeds)
{
    const auto r = fit(with({"llama-65b", "--mode", "training", "--optimizer", "adam", "--format", "json"}, by_hand));
    EXPECT_EQ(r.exit_code, 5) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["cards_needed"], 13);
    EXPECT_EQ(j["parts"]["optimizer_states"]["bytes"], 8 * 65285660672ll);
    EXPECT_EQ(j["workload"]["attention"], "memory-efficient");
    EXPECT_TRUE(j["decode_tokens_per_second_ceiling"].is_null()) << "training has no decode ceiling";
    const auto split = fit(with({"llama-65b", "--mode", "training", "--optimizer", "adam", "--cards", "13"}, by_hand));
    EXPECT_EQ(split.exit_code, 0) << split.out;
    const auto eager = fit(with({"llama-65b", "--mode", "training", "--attention", "eager", "--cards", "13"}, by_hand));
    EXPECT_EQ(eager.exit_code, 5) << "the scores eager attention keeps need a 14th card\n" << eager.out;
}

// The hand computation docs/fit.md shows: 16 B x 72.7e9 + 34 s h L at s 4096 = 1.25e12 B.
TEST(FitCli, TrainingQwen72bOnAn80GiBCardIsWithinAQuarterOfTheHandComputation)
{
    const auto r = fit({"qwen2.5-72b", "--mode", "training", "--memory", "80GiB", "--format", "json"});
    EXPECT_EQ(r.exit_code, 5) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["workload"]["context_tokens"], 4096);
    EXPECT_NEAR(j["total_bytes"].get<double>() / 1.2545e12, 1.0, 0.25);
    EXPECT_TRUE(
        contains(j["parts"]["activations"]["formula"].get<std::string>(), "Korthikanti et al. with FlashAttention"));
}

// fit's --memory reads GB as decimal, as --bandwidth does, and echoes the bytes.
TEST(FitCli, MemoryInGBIsDecimalAndEchoedInBytes)
{
    const auto r = fit({"llama-7b", "--memory", "80GB", "--bandwidth", "2039GB/s"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "80000000000 B (74.51 GiB, 80.00 GB)")) << r.out;
    expect_refused(fit({"llama-7b", "--memory", "80G", "--bandwidth", "2039GB/s"}), "--memory '80G'");
}

TEST(FitCli, JsonCarriesEveryFieldAndTheMeasuredFiguresOfAResultSet)
{
    const auto r = fit({"350M", "--layers", "24", "--hidden", "1024", "--result", published, "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["fits"], true);
    EXPECT_EQ(j["parameters"], 350000000);
    EXPECT_EQ(j["card"]["device"], "vulkan:0");
    for (const char *part : {"weights", "activations", "kv_cache", "runtime", "fragmentation"})
        EXPECT_TRUE(j["parts"].contains(part)) << part;
    EXPECT_EQ(j["available_bytes"], 2147483648ll);
    EXPECT_GT(j["max_context_tokens"].get<double>(), 4096);
    EXPECT_GT(j["decode"]["host_ram_slower"].get<double>(), 0);
    std::vector<std::string> figures;
    for (const auto &f : j["measured"]) {
        figures.push_back(f["figure"]);
        EXPECT_TRUE(contains(f["result_id"].get<std::string>(), "#")) << f.dump();
    }
    for (const char *needed : {"capacity.total", "capacity.report total", "capacity.max-alloc",
                               "capacity.fragmentation", "bandwidth.stream read", "bandwidth.stream read (host RAM)"})
        EXPECT_NE(std::find(figures.begin(), figures.end(), needed), figures.end()) << needed;
}

TEST(FitCli, ALlamaAgainstLavapipeDoesNotFitAndNamesTheHostRamSlowdown)
{
    const auto r = fit({"llama-7b", "--result", published});
    EXPECT_EQ(r.exit_code, 5) << r.err;
    EXPECT_TRUE(contains(r.out, "llvmpipe")) << r.out;
    EXPECT_TRUE(contains(r.out, "served from host RAM")) << r.out;
    EXPECT_TRUE(contains(r.out, "x faster")) << "host RAM reads faster than lavapipe here\n" << r.out;
    const auto host = fit({"llama-7b", "--result", published, "--device", "host:0", "--dtype", "int4"});
    EXPECT_EQ(host.exit_code, 0) << host.out;
}

TEST(FitCli, AConfigFileIsAModel)
{
    const auto config = temp_file("config.json", R"({"model_type": "mistral", "hidden_size": 4096,
        "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
        "intermediate_size": 14336, "vocab_size": 32000, "max_position_embeddings": 32768})");
    const auto r = fit(with({config.string(), "--context", "8192", "--format", "json"}, by_hand));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["parameters"], 7241732096ll); // Mistral-7B's 7.24e9
}

TEST(FitCli, RefusesBadModelsInOneLine)
{
    expect_refused(fit(with({"no-such-model"}, by_hand)), "unknown model 'no-such-model'");
    expect_refused(fit(with({"1e15"}, by_hand)), "not taken for a model");
    expect_refused(fit(with({"0B"}, by_hand)), "at least one parameter");
    expect_refused(fit(with({"/no/such/config.json"}, by_hand)), "no such file");
    expect_refused(fit(with({temp_file("cut.json", R"({"model_type": "llama", "hidden_)").string()}, by_hand)),
                   "not a whole JSON document");
    expect_refused(fit(with({temp_file("rwkv.json", R"({"model_type": "rwkv"})").string()}, by_hand)),
                   "unknown architecture (model_type 'rwkv')");
    expect_refused(
        fit(with({temp_file("nolayers.json", R"({"model_type": "llama", "hidden_size": 4096})").string()}, by_hand)),
        "field 'num_hidden_layers' is missing");
    expect_refused(
        fit(with({temp_file("negative.json", R"({"model_type": "gpt_neox", "hidden_size": -1})").string()}, by_hand)),
        "field 'hidden_size' is -1");
}

TEST(FitCli, RefusesBadWorkloadsAndCardsInOneLine)
{
    expect_refused(fit(with({"llama-7b", "--dtype", "fp4"}, by_hand)), "--dtype 'fp4'");
    expect_refused(fit(with({"llama-7b", "--batch", "0"}, by_hand)), "--batch 0");
    expect_refused(fit(with({"llama-7b", "--context", "-5"}, by_hand)), "--context -5");
    expect_refused(fit(with({"llama-7b", "--cards", "1e9"}, by_hand)), "--cards 1e+09");
    expect_refused(fit(with({"llama-7b", "--mode", "training", "--dtype", "int4"}, by_hand)), "training keeps");
    expect_refused(fit({"llama-7b", "--memory", "0GB", "--bandwidth", "2039GB/s"}), "--memory '0GB'");
    expect_refused(fit({"llama-7b", "--bandwidth", "2039GB/s"}), "--bandwidth needs --memory");
    expect_refused(fit(with({"llama-7b", "--attention", "sdpa"}, by_hand)), "--attention 'sdpa'");
    expect_refused(fit(with({"llama-7b", "--offload", "20G"}, by_hand)), "--offload '20G'");
    expect_refused(fit(with({"65B", "--layers", "80", "--hidden", "8192", "--head-dim", "128"}, by_hand)),
                   "--head-dim needs --heads or --kv-heads");
    expect_refused(fit({"llama-7b", "--memory", "80GiB", "--bandwidth", "-1TB/s"}), "--bandwidth '-1TB/s'");
    expect_refused(fit({"llama-7b", "--memory", "80GiB"}), "--memory and --bandwidth go together");
    expect_refused(fit({"llama-7b"}), "fit needs a card to measure against");
    expect_refused(fit({"llama-7b", "--result", "/no/such/set.json"}), "/no/such/set.json");
}

TEST(FitCli, ASetWithoutCapacityFiguresNamesTheProbesToRun)
{
    auto set = nlohmann::json::parse(std::ifstream(published));
    nlohmann::json kept = nlohmann::json::array();
    for (const auto &r : set["results"])
        if (r["probe"].get<std::string>().rfind("capacity.", 0) != 0) kept.push_back(r);
    set["results"] = kept;
    const auto file = temp_file("no-capacity.json", set.dump());
    expect_refused(fit({"llama-7b", "--result", file.string()}),
                   "vulkan:0 has no capacity figures (capacity.report, capacity.total): run `vrambench run --device "
                   "vulkan:0 --probe capacity.report");
}

// The published H200 with host RAM's read from a second set: LLaMA-2-70B fits in fp16;
// LLaMA-3.1-405B with what does not fit in host memory answers both routes, each named.
TEST(FitCli, TheH200FitsLlama2And405bOffloadedAnswersBothRoutes)
{
    const std::string h200 = std::string(VRAMBENCH_SOURCE_DIR) + "/results/nvidia-h200-cuda/standard.json";
    const auto fits = fit({"llama-2-70b", "--result", h200, "--result", published, "--dtype", "fp16"});
    EXPECT_EQ(fits.exit_code, 0) << fits.err << fits.out;
    EXPECT_TRUE(contains(fits.out, "served from host RAM")) << fits.out;
    const auto r =
        fit({"llama-3.1-405b", "--dtype", "fp16", "--offload", "auto", "--result", h200, "--result", published});
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    for (const char *line :
         {"offloaded to host memory:", "over its link: ", "memory.kinds pinned read",
          "from its own memory: ", "bandwidth.stream read (host RAM)", "x slower than all in VRAM", "the result set "})
        EXPECT_TRUE(contains(r.out, line)) << line << "\n" << r.out;
    const auto j = nlohmann::json::parse(fit({"llama-3.1-405b", "--dtype", "fp16", "--offload", "auto", "--result",
                                              h200, "--result", published, "--format", "json"})
                                             .out);
    EXPECT_GT(j["offload"]["over_the_link"]["slower_than_all_in_vram"].get<double>(), 1);
    EXPECT_GT(j["offload"]["on_the_host"]["slower_than_all_in_vram"].get<double>(), 1);
    expect_refused(fit({"llama-7b", "--result", h200, "--result", published, "--result", published}),
                   "--result is given at most twice");
}

TEST(FitCli, ADeviceThatFailsIsRefused)
{
    expect_refused(fit({"llama-7b", "--device", "host:99"}), "--device host:99");
    expect_refused(fit({"llama-7b", "--device", "nonsense"}), "name a device as backend:index");
}

// The few figures fit needs, measured now on the host: capacity and a stream read.
TEST(FitCli, MeasuresTheHostNowAndJudgesAgainstIt)
{
    const auto r = fit({"125M", "--layers", "12", "--hidden", "768", "--device", "host:0", "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["card"]["measured"], "measured now");
    EXPECT_GT(j["decode_tokens_per_second_ceiling"].get<double>(), 0);
    EXPECT_GE(j["measured"].size(), 3u);
}
