// A minimal module's first run: ABI 1.2's table without op_supported, four operations
// declined with VRB_ERROR_UNSUPPORTED (tests/mock/minimal_plugin.cpp). Declining is not
// failing: the standard suite waives them with the module's words and exits 0, and the
// comparison the docs give its author lines its stream figures up with the host's.
#include "../scratch_folder.hpp"
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <set>

namespace {

nlohmann::json read_set(const std::filesystem::path &file)
{
    return vrb::read_result_file(file.string());
}

} // namespace

TEST(DeclinedRun, AMinimalModuleRunsTheStandardSuiteWithWhatItDeclinesWaivedAndExitsZero)
{
    const vrb::test::ScratchFolder scratch("declined-run");
    const auto acme = scratch.path() / "acme.json", host = scratch.path() / "host.json";
    // The standard suite on a budget of seconds: its template kernels run one thread.
    const ProcessResult run = vrambench({"run", "--plugin", MOCK_MINIMAL_PATH, "--backend", "acme", "--suite",
                                         "standard", "--budget", "4", "--format", "json", "-o", acme.string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_FALSE(contains(run.err, "some measurements failed")) << run.err;
    const nlohmann::json set = read_set(acme);
    EXPECT_EQ(set["run"]["status"], "complete");
    const std::set<std::string> declined{"latency.chase", "pattern.stride", "pattern.gather", "bandwidth.transfer"};
    std::set<std::string> waived, failed;
    for (const auto &r : set["results"]) {
        const std::string probe = r["probe"];
        if (r["status"] == "failed") failed.insert(probe);
        if (r["status"] != "waived" || !declined.count(probe)) continue;
        waived.insert(probe);
        EXPECT_TRUE(contains(r.value("error", ""), "acme does not implement this operation yet")) << r.dump();
    }
    EXPECT_TRUE(failed.empty()) << *failed.begin();
    EXPECT_EQ(waived, declined) << "each declined operation's probe is waived with the module's words";

    // `compare --pair host:0=acme:0`: each device's stream on its own default kind.
    const ProcessResult host_run = vrambench({"run", "--backend", "host", "--probe", "bandwidth.stream", "--suite",
                                              "quick", "--size", "8M", "--format", "json", "-o", host.string()});
    ASSERT_EQ(host_run.exit_code, 0) << host_run.err;
    const ProcessResult compared =
        vrambench({"compare", host.string(), acme.string(), "--pair", "host:0=acme:0", "--format", "json"});
    ASSERT_EQ(compared.exit_code, 0) << compared.out << compared.err;
    const nlohmann::json comparison = nlohmann::json::parse(compared.out);
    bool read = false;
    for (const auto &c : comparison["comparisons"])
        for (const auto &f : c["figures"])
            if (f["probe"] == "bandwidth.stream" && f["parameters"].value("operation", "") == "read") {
                read = true;
                EXPECT_EQ(f["parameters"]["memory_kind"], "pageable / device");
            }
    EXPECT_TRUE(read) << compared.out;
}
