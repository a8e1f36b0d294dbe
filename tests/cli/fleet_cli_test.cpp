// `vrambench fleet` and `compare --fleet` end to end: the outliers of hand-made fleets
// and their exit codes, bad input refused, and the fleet's path through a stand-in srun
// that starts the node task here (a real Slurm is tested in tests/fleet).
#include "../scratch_folder.hpp"
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

std::string fleet_data(const std::string &name)
{
    return std::string(VRAMBENCH_TEST_DATA) + "/fleet/" + name;
}

// compare --fleet on the recorded fleets alone: the published sets under results/ are
// references too (a card model they hold would be judged against them), and what is
// published must not move these tests.
ProcessResult fleet_compare(std::vector<std::string> args)
{
    args.insert(args.begin(), "compare");
    return vrambench(std::move(args), {"VRAMBENCH_RESULTS="});
}

using vrb::test::ScratchFolder;

// srun's stand-in: records its arguments, drops its own options and starts the task
// once, as task 0, the way srun does on a one-node allocation.
fs::path fake_srun(const fs::path &folder, int exit_code = -1)
{
    const fs::path script = folder / "srun";
    std::ofstream out(script);
    out << "#!/bin/sh\n"
        << "printf '%s\\n' \"$@\" > '" << (folder / "srun.args").string() << "'\n";
    if (exit_code >= 0)
        out << "exit " << exit_code << "\n";
    else
        out << "while [ \"${1#-}\" != \"$1\" ]; do shift; done\n"
            << "SLURM_PROCID=0 exec \"$@\"\n";
    out.close();
    fs::permissions(script, fs::perms::owner_all);
    return script;
}

std::string read_text(const fs::path &file)
{
    std::ifstream in(file);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::string short_host()
{
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    std::string host = name;
    return host.substr(0, host.find('.'));
}

} // namespace

TEST(CliFleet, CompareFleetNamesThePlantedSlowCardAndExits5)
{
    const ProcessResult r = fleet_compare({"--fleet", fleet_data("planted")});
    EXPECT_EQ(r.exit_code, 5) << r.err;
    EXPECT_NE(r.err.find("outlier: gpu-a03 pci:0000:3b:00.0: copy"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("outlier: gpu-a03 pci:0000:3b:00.0: triad"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("outlier: gpu-a03 pci:0000:3b:00.0: latency"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("outlier: gpu-a01"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("OUTLIER gpu-a03 pci:0000:3b:00.0"), std::string::npos) << r.out;
}

TEST(CliFleet, CompareFleetOfEvenCardsNamesNoneAndExits0)
{
    const ProcessResult r = fleet_compare({"--fleet", fleet_data("even"), "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["outliers"], 0);
    EXPECT_EQ(doc["cards"], 8);
    EXPECT_EQ(doc["groups"].size(), 3u);
}

TEST(CliFleet, AWiderRuleLetsThePlantedCardPass)
{
    const ProcessResult r =
        fleet_compare({"--fleet", fleet_data("planted"), "--mad-factor", "100", "--min-deviation", "0.2"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CliFleet, CompareFleetRefusesFilesBesideItAMissingFolderAndFormatsItCannotPrint)
{
    EXPECT_EQ(
        fleet_compare({"--fleet", fleet_data("even"), fleet_data("even/gpu-a01_pci-0000-19-00.0.json")}).exit_code, 2);
    const ProcessResult missing = fleet_compare({"--fleet", "/nonexistent/fleet"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("/nonexistent/fleet"), std::string::npos) << missing.err;
    EXPECT_EQ(fleet_compare({"--fleet", fleet_data("even"), "--format", "csv"}).exit_code, 2);
    EXPECT_EQ(fleet_compare({"--fleet", fleet_data("even"), "--fail-below", "0.9"}).exit_code, 2);
    EXPECT_EQ(fleet_compare({"--fleet", fleet_data("even"), "--min-deviation", "-1"}).exit_code, 2);
    // Without --fleet, compare still needs two files.
    EXPECT_EQ(fleet_compare({fleet_data("even/gpu-a01_pci-0000-19-00.0.json")}).exit_code, 2);
}

TEST(CliFleet, CompareFleetNamesAFileThatIsNotAResultSet)
{
    ScratchFolder folder("vrb-fleet-cli");
    fs::copy(fleet_data("even"), folder.path());
    std::ofstream(folder.path() / "gpu-a05_pci-0000-19-00.0.json") << "{\"truncated\": ";
    const ProcessResult r = fleet_compare({"--fleet", folder.path().string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("gpu-a05_pci-0000-19-00.0.json"), std::string::npos) << r.err;
}

TEST(CliFleet, FleetRunsTheNodeTaskThroughSrunAndWritesOneSetPerHostAndCard)
{
    ScratchFolder folder("vrb-fleet-cli");
    const fs::path srun = fake_srun(folder.path());
    const fs::path out = folder.path() / "sets";
    const ProcessResult r =
        vrambench({"fleet", "--dir", out.string(), "--srun", srun.string(), "--srun-option=--nodes=1", "--",
                   "--backend", "host", "--suite", "quick", "--size", "1M", "--probe", "bandwidth.stream"});
    // A CPU host has no datasheet floor and no reference here: the run succeeds and its
    // card is counted as not judged, never taken for healthy.
    ASSERT_EQ(r.exit_code, 6) << r.err << r.out;
    EXPECT_NE((r.out + r.err).find("not judged"), std::string::npos) << r.err << r.out;
    const std::string args = read_text(folder.path() / "srun.args");
    EXPECT_EQ(args.rfind("--ntasks-per-node=1\n--nodes=1\n", 0), 0u) << args;
    EXPECT_NE(args.find("__fleet-node\n" + fs::absolute(out).string() + "\n"), std::string::npos) << args;
    const fs::path set = out / (short_host() + "_host-0.json");
    ASSERT_TRUE(fs::exists(set)) << r.err;
    const auto doc = vrb::read_result_file(set);
    EXPECT_FALSE(vrb::validate_result_json(doc));
    EXPECT_EQ(doc["run"]["suite"], "quick");
    std::size_t files = 0;
    for (const auto &entry : fs::directory_iterator(out)) {
        ++files;
        EXPECT_FALSE(entry.path().filename().string().starts_with(".partial")) << entry.path();
    }
    EXPECT_EQ(files, 1u);
    EXPECT_NE(r.out.find("not judged: 1 card of this model"), std::string::npos) << r.out;
}

TEST(CliFleet, FleetRefusesRunArgumentsItSetsItselfBeforeStartingSrun)
{
    ScratchFolder folder("vrb-fleet-cli");
    const fs::path srun = fake_srun(folder.path());
    for (const char *owned : {"-o", "--output", "--format", "--plan"}) {
        const ProcessResult r = vrambench({"fleet", "--dir", (folder.path() / "sets").string(), "--srun", srun.string(),
                                           "--", "--backend", "host", owned, "x"});
        EXPECT_EQ(r.exit_code, 2) << owned;
        EXPECT_NE(r.err.find("fleet sets"), std::string::npos) << r.err;
    }
    EXPECT_FALSE(fs::exists(folder.path() / "srun.args")) << "srun was started";
}

TEST(CliFleet, AFailedSrunIsARunFailureAndAMissingOneIsNamed)
{
    ScratchFolder folder("vrb-fleet-cli");
    const fs::path failing = fake_srun(folder.path(), 1);
    const ProcessResult r = vrambench(
        {"fleet", "--dir", (folder.path() / "sets").string(), "--srun", failing.string(), "--", "--backend", "host"});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_NE(r.err.find("srun exited 1"), std::string::npos) << r.err;
    const ProcessResult missing = vrambench({"fleet", "--dir", (folder.path() / "sets").string(), "--srun",
                                             "/nonexistent/srun", "--", "--backend", "host"});
    EXPECT_EQ(missing.exit_code, 3);
    EXPECT_NE(missing.err.find("cannot start /nonexistent/srun"), std::string::npos) << missing.err;
}

TEST(CliFleet, FleetRefusesAFolderItCannotUse)
{
    ScratchFolder folder("vrb-fleet-cli");
    std::ofstream(folder.path() / "file") << "x";
    const ProcessResult r = vrambench({"fleet", "--dir", (folder.path() / "file").string(), "--", "--backend", "host"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("fleet's folder"), std::string::npos) << r.err;
}
