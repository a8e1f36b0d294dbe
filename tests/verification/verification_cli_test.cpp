// The executable on the lying module: a lie a probe catches makes the run exit 4 with
// the result marked verification-failed, naming the address and both values the module
// logged; without a lie the same run exits 0.
#include "lying_module.hpp"
#include "run_process.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

struct LyingRun {
    ProcessResult process;
    nlohmann::json document;
    std::vector<std::string> told;
};

LyingRun run_lying(const std::string &lie, const std::string &probe, std::vector<std::string> extra = {})
{
    const auto log = vrb::test::fresh_log_path();
    std::vector<std::string> args{VRAMBENCH_EXE, "run",    "--plugin", MOCK_LIAR_PATH, "--backend", "liar",
                                  "--device",    "liar:0", "--probe",  probe,          "--suite",   "quick",
                                  "--reps",      "2",      "--format", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    LyingRun run;
    run.process = run_process(args, {"VRAMBENCH_LIE=" + lie, "VRAMBENCH_LIE_LOG=" + log.string()});
    run.told = vrb::test::read_lines(log);
    std::filesystem::remove(log);
    run.document = nlohmann::json::parse(run.process.out, nullptr, false);
    return run;
}

// The run exited 4 and each result of `probe` whose operation (or direction) is one of
// `spoiled` is verification-failed naming a lie the module told, after `before`.
void expect_exit_4_naming_the_lie(const LyingRun &run, const std::vector<std::string> &spoiled,
                                  const std::string &before)
{
    ASSERT_EQ(run.process.exit_code, 4) << run.process.err;
    ASSERT_FALSE(run.document.is_discarded()) << run.process.out;
    ASSERT_FALSE(run.told.empty());
    std::size_t caught = 0;
    for (const auto &r : run.document.at("results")) {
        const auto &p = r.at("parameters");
        const std::string op = p.contains("operation")   ? p.at("operation").get<std::string>()
                               : p.contains("direction") ? p.at("direction").get<std::string>()
                                                         : "";
        if (std::find(spoiled.begin(), spoiled.end(), op) == spoiled.end()) continue;
        SCOPED_TRACE(r.dump());
        EXPECT_EQ(r.at("status"), "verification-failed");
        EXPECT_EQ(r.at("verification").at("status"), "failed");
        const std::string detail = r.at("verification").at("detail");
        EXPECT_TRUE(std::any_of(run.told.begin(), run.told.end(), [&](const std::string &line) {
            return detail.find(before + line) != std::string::npos;
        })) << detail;
        ++caught;
    }
    EXPECT_GE(caught, 1u);
}

const std::vector<std::string> quick_size{"--size", "1M"};

} // namespace

TEST(LyingModuleRun, WithoutALieTheSameRunExitsZero)
{
    const LyingRun run = run_lying("", "bandwidth.stream", quick_size);
    EXPECT_EQ(run.process.exit_code, 0) << run.process.err;
    EXPECT_TRUE(run.told.empty());
}

TEST(LyingModuleRun, AStreamChecksumOffByOneExitsFour)
{
    expect_exit_4_naming_the_lie(run_lying("checksum", "bandwidth.stream", quick_size), {"read", "dot"}, "");
}

TEST(LyingModuleRun, AWrongTriadLaneExitsFourNamingItsByteAndBothValues)
{
    expect_exit_4_naming_the_lie(run_lying("triad", "bandwidth.stream", quick_size), {"triad"}, "first at ");
}

TEST(LyingModuleRun, AWrongSweepCopyLaneExitsFour)
{
    expect_exit_4_naming_the_lie(run_lying("copy", "bandwidth.sweep", quick_size), {"copy"}, "first at ");
}

TEST(LyingModuleRun, AWrongAlignmentReadChecksumExitsFour)
{
    expect_exit_4_naming_the_lie(run_lying("checksum", "pattern.alignment", quick_size), {"read"}, "");
}

TEST(LyingModuleRun, AWrongVectorCopyLaneExitsFour)
{
    expect_exit_4_naming_the_lie(run_lying("copy", "pattern.vector", quick_size), {"copy"}, "first at ");
}

TEST(LyingModuleRun, AWrongKindsWriteLaneExitsFour)
{
    expect_exit_4_naming_the_lie(run_lying("write", "memory.kinds", quick_size), {"write"}, "first at ");
}

TEST(LyingModuleRun, AStrideAndGatherChecksumOffByOneExitsFour)
{
    expect_exit_4_naming_the_lie(run_lying("checksum", "pattern.stride", quick_size), {"strided-read"}, "");
    expect_exit_4_naming_the_lie(run_lying("checksum", "pattern.gather", quick_size), {"gather"}, "");
}

TEST(LyingModuleRun, AChaseEndingOneNodeEarlyExitsFour)
{
    expect_exit_4_naming_the_lie(run_lying("chase", "latency.chase", quick_size), {"chase"}, "");
}

TEST(LyingModuleRun, ATransferSpoilingOneByteExitsFourNamingItsByte)
{
    expect_exit_4_naming_the_lie(run_lying("second-direction", "bandwidth.transfer", quick_size),
                                 {"both-directions pinned", "both-directions pageable"}, "first at ");
}

TEST(LyingModuleRun, AWrongPeerCopyAndPeerReadExitFour)
{
    const LyingRun copy = run_lying("peer-copy", "bandwidth.peer", quick_size);
    EXPECT_EQ(copy.process.exit_code, 4) << copy.process.err;
    const LyingRun read = run_lying("peer-read", "latency.peer", quick_size);
    expect_exit_4_naming_the_lie(read, {"chase"}, "in the peer's memory: ");
}

TEST(LyingModuleRun, AnImportReadingOtherBytesExitsFour)
{
    for (const char *probe : {"interop.handoff", "interop.bandwidth", "interop.import"}) {
        SCOPED_TRACE(probe);
        const LyingRun run = run_lying("import", probe, quick_size);
        ASSERT_EQ(run.process.exit_code, 4) << run.process.err;
        std::size_t caught = 0;
        for (const auto &r : run.document.at("results")) {
            // The run loads its other modules as partners; only the liar reads its own imports.
            if (r.at("parameters").value("pair", "") != "liar->liar") continue;
            EXPECT_EQ(r.at("status"), "verification-failed") << r.dump();
            ++caught;
        }
        EXPECT_GE(caught, 1u);
    }
}

TEST(LyingModuleRun, AnAllocationWhoseLastLaneReadsBackWrongExitsFour)
{
    for (const char *probe : {"capacity.max-alloc", "capacity.total", "capacity.fragmentation", "integrity.pattern"}) {
        SCOPED_TRACE(probe);
        const LyingRun run = run_lying("blind-check", probe, {"--memory-limit", "32M"});
        ASSERT_EQ(run.process.exit_code, 4) << run.process.err;
        std::size_t caught = 0;
        for (const auto &r : run.document.at("results")) {
            if (r.at("status") != "verification-failed") continue;
            const std::string detail = r.at("verification").at("detail");
            EXPECT_NE(detail.find("the device's CHECK did not report it"), std::string::npos) << detail;
            ++caught;
        }
        EXPECT_GE(caught, 1u);
    }
}

TEST(LyingModuleRun, ALieTheModuleDoesNotKnowStopsItWithTheName)
{
    const LyingRun run = run_lying("chekcsum", "bandwidth.stream", quick_size);
    EXPECT_NE(run.process.exit_code, 0);
    EXPECT_TRUE(contains(run.process.out + run.process.err, "VRAMBENCH_LIE=chekcsum names no lie"))
        << run.process.out << run.process.err;
}
