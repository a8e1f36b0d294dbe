// A run survives a backend that crashes, aborts, exits, hangs or writes garbage: the
// fault is recorded with its kind, the other backend's results are complete and
// verified, and an interrupted run keeps every result that finished.
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

std::filesystem::path temp_file(const std::string &name)
{
    auto dir = std::filesystem::temp_directory_path() / ("vrb-rel-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return dir / name;
}

struct Outcome {
    ProcessResult process;
    nlohmann::json document;
};

// host plus one faulty module, small and quick.
Outcome run_with(const char *module, const std::string &name, std::vector<std::string> extra = {},
                 const std::vector<std::string> &env = {})
{
    const auto file = temp_file(name + ".json");
    std::vector<std::string> args{VRAMBENCH_EXE, "run",     "--plugin",         module, "--suite",    "quick", "--size",
                                  "1M",          "--probe", "bandwidth.stream", "-o",   file.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    Outcome run;
    run.process = run_process(args, env);
    if (std::filesystem::exists(file)) run.document = vrb::read_result_file(file);
    return run;
}

// A module that crashed before saying its name is named after its file: vrambench-faulty-*.so.
const nlohmann::json &backend(const nlohmann::json &doc, const std::string &name)
{
    for (const auto &b : doc["backends"])
        if (b["name"].get<std::string>().rfind(name, 0) == 0) return b;
    static const nlohmann::json none;
    return none;
}

std::size_t results_of(const nlohmann::json &doc, const std::string &backend_name, bool verified_only = true)
{
    std::size_t n = 0;
    for (const auto &r : doc["results"])
        if (r["backend"] == backend_name && (!verified_only || r["verification"]["status"] == "passed")) ++n;
    return n;
}

// What every fault must leave: a valid file, the fault recorded, host complete, exit 3.
void expect_survived(const Outcome &run, const std::string &state, const std::string &reason_part)
{
    EXPECT_EQ(run.process.exit_code, 3) << run.process.err;
    ASSERT_TRUE(run.document.is_object()) << "no result file; stderr: " << run.process.err;
    const auto violation = vrb::validate_result_json(run.document);
    EXPECT_FALSE(violation) << violation->path << ": " << violation->message;
    const auto &faulty = backend(run.document, "faulty");
    EXPECT_EQ(faulty["state"], state) << faulty.dump();
    EXPECT_NE(faulty["reason"].get<std::string>().find(reason_part), std::string::npos) << faulty.dump();
    EXPECT_EQ(results_of(run.document, "host"), 7u) << "the host backend's results must be complete and verified";
    EXPECT_EQ(run.document["run"]["status"], "failed");
}

// The pids a forking module's helpers wrote, one line per worker that loaded it.
std::vector<pid_t> helper_pids(const std::filesystem::path &file)
{
    std::vector<pid_t> pids;
    std::ifstream in(file);
    for (pid_t pid = 0; in >> pid;)
        pids.push_back(pid);
    return pids;
}

// Running (or stopped), not a zombie and not gone.
bool alive(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line)) return false;
    const auto close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

// Every helper ended by vrambench; one that was not is ended here, so no test leaves one behind.
void expect_helpers_ended(const std::filesystem::path &file, std::size_t workers)
{
    const auto pids = helper_pids(file);
    EXPECT_EQ(pids.size(), workers) << "one helper per worker that loaded the module";
    for (const pid_t pid : pids) {
        EXPECT_FALSE(alive(pid)) << "helper " << pid << " outlived vrambench";
        if (alive(pid)) ::kill(pid, SIGKILL);
    }
}

} // namespace

TEST(Reliability, AWorkingModuleRunsInItsWorkerBesideTheHost)
{
    const Outcome outcome = run_with(FAULTY_NONE, "none");
    EXPECT_EQ(outcome.process.exit_code, 0) << outcome.process.err;
    EXPECT_EQ(results_of(outcome.document, "faulty"), 7u);
    EXPECT_EQ(results_of(outcome.document, "host"), 7u);
}

TEST(Reliability, ASegfaultInInitIsRecordedAsCrashedWithTheSignal)
{
    expect_survived(run_with(FAULTY_CRASH_INIT, "crash-init"), "crashed", "SIGSEGV");
}

TEST(Reliability, AnAbortWhileEnumeratingIsRecordedAsCrashed)
{
    expect_survived(run_with(FAULTY_ABORT_COUNT, "abort-count"), "crashed", "SIGABRT");
}

TEST(Reliability, ASegfaultInAnOperationKeepsTheResultsBeforeIt)
{
    const Outcome outcome = run_with(FAULTY_CRASH_RUN, "crash-run");
    expect_survived(outcome, "crashed", "SIGSEGV");
    EXPECT_EQ(results_of(outcome.document, "faulty"), 2u) << "read and write finished before the crash";
    // The reason names what the worker was doing: device, probe and step (an interop
    // probe's step is its pair).
    const std::string reason = backend(outcome.document, "faulty")["reason"];
    EXPECT_NE(reason.find("(SIGSEGV) during faulty:0 bandwidth.stream copy"), std::string::npos) << reason;
}

TEST(Reliability, APluginThatExitsMidRunIsRecordedAsExitedEarly)
{
    const Outcome outcome = run_with(FAULTY_EXIT_RUN, "exit-run");
    expect_survived(outcome, "exited", "exited early with status 0");
    EXPECT_EQ(results_of(outcome.document, "faulty"), 2u);
}

TEST(Reliability, AHangIsStoppedAfterTheTimeoutAndRecordedAsTimedOut)
{
    const auto start = std::chrono::steady_clock::now();
    const Outcome outcome = run_with(FAULTY_HANG_RUN, "hang-run", {"--timeout", "2"});
    expect_survived(outcome, "timed-out", "timed out");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
}

TEST(Reliability, AWorkerThatWritesGarbageIsAProtocolError)
{
    expect_survived(run_with(FAULTY_GARBAGE_RUN, "garbage-run"), "protocol-error", "protocol error");
}

TEST(Reliability, APluginsOwnPrintsCannotCorruptJsonOnStdout)
{
    const ProcessResult r =
        run_process({VRAMBENCH_EXE, "run", "--plugin", FAULTY_PRINTS_RUN, "--backend", "faulty", "--suite", "quick",
                     "--size", "1M", "--probe", "bandwidth.stream", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(results_of(doc, "faulty"), 7u);
    EXPECT_NE(r.err.find("faulty plugin chatter on stdout"), std::string::npos) << "its prints go to stderr";
}

TEST(Reliability, AnInterruptedRunKeepsEveryFinishedResultMarkedInterrupted)
{
    const auto file = temp_file("interrupted.json");
    const auto journal = std::filesystem::path(file.string() + ".journal");
    std::filesystem::remove(file);
    std::filesystem::remove(journal);
    const pid_t pid = fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDOUT_FILENO);
        ::dup2(null, STDERR_FILENO);
        ::execl(VRAMBENCH_EXE, "vrambench", "run", "--backend", "host", "--suite", "standard", "--size", "64M",
                "--probe", "bandwidth.stream", "-o", file.c_str(), nullptr);
        ::_exit(127);
    }
    // Wait for two finished results in the journal, then interrupt.
    std::size_t journaled = 0;
    for (int i = 0; i < 600 && journaled < 2; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        std::ifstream in(journal);
        journaled = static_cast<std::size_t>(std::count(std::istreambuf_iterator<char>(in), {}, '\n'));
    }
    ASSERT_GE(journaled, 2u) << "the run never journaled a result";
    ::kill(pid, SIGINT);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    const auto doc = vrb::read_result_file(file);
    EXPECT_FALSE(vrb::validate_result_json(doc));
    EXPECT_EQ(doc["run"]["status"], "interrupted");
    EXPECT_GE(results_of(doc, "host"), journaled);
    EXPECT_LT(doc["results"].size(), 21u) << "the run was stopped before its end";
}

TEST(Reliability, AWorkerThatCrashesWhileItsDaemonHoldsThePipeIsRecordedAsCrashedAtOnceAndTheDaemonEnded)
{
    const auto pids = temp_file("fork-crash-init.pids");
    std::filesystem::remove(pids);
    const auto start = std::chrono::steady_clock::now();
    // The default --timeout (600 s): only noticing the worker's end can finish this soon.
    const Outcome outcome =
        run_with(FAULTY_FORK_CRASH_INIT, "fork-crash-init", {}, {"FAULTY_HELPER_PID_FILE=" + pids.string()});
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
    expect_survived(outcome, "crashed", "SIGSEGV");
    expect_helpers_ended(pids, 1);
}

TEST(Reliability, ADaemonThatOutlivesItsWorkerNeitherStallsTheRunNorOutlivesIt)
{
    const auto pids = temp_file("fork-init.pids");
    std::filesystem::remove(pids);
    const auto start = std::chrono::steady_clock::now();
    const Outcome outcome =
        run_with(FAULTY_FORK_INIT, "fork-init", {"--timeout", "30"}, {"FAULTY_HELPER_PID_FILE=" + pids.string()});
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(25)) << "a worker was waited out";
    EXPECT_EQ(outcome.process.exit_code, 0) << outcome.process.err;
    EXPECT_EQ(results_of(outcome.document, "faulty"), 7u);
    EXPECT_EQ(backend(outcome.document, "faulty")["state"], "available");
    expect_helpers_ended(pids, 2); // the describing worker's and the running worker's
}

TEST(Reliability, AHelperAModuleStartsLivesWhileAWorkerBesideItEnds)
{
    // Modules are described side by side: the host's worker ends while the forking
    // module's init still waits on its helper, and ending that worker's leftovers must
    // not take a helper that belongs to a worker still running.
    const auto pids = temp_file("fork-watch.pids");
    std::filesystem::remove(pids);
    const ProcessResult listed =
        run_process({VRAMBENCH_EXE, "list", "--format", "json", "--plugin", FAULTY_FORK_INIT},
                    {"FAULTY_HELPER_PID_FILE=" + pids.string(), "FAULTY_HELPER_WATCH_MS=1500"});
    ASSERT_EQ(listed.exit_code, 0) << listed.err;
    const nlohmann::json wrapped = {{"backends", nlohmann::json::parse(listed.out)}};
    const auto &faulty = backend(wrapped, "faulty");
    EXPECT_EQ(faulty["state"], "available") << faulty.dump();
    const nlohmann::json *host = nullptr;
    for (const auto &b : wrapped["backends"])
        if (b["name"] == "host") host = &b;
    ASSERT_NE(host, nullptr) << "the host module is described beside it";
    EXPECT_EQ((*host)["state"], "available");
    expect_helpers_ended(pids, 1);
}

TEST(Reliability, ASuspectFigureExitsZeroByDefaultAndFourWithFailOnSuspect)
{
    const std::vector<std::string> faulty_only{"--backend", "faulty"};
    const Outcome by_default = run_with(FAULTY_SUSPECT, "suspect", faulty_only);
    EXPECT_EQ(by_default.process.exit_code, 0) << by_default.process.err;
    std::size_t suspect = 0;
    for (const auto &r : by_default.document["results"])
        suspect += r["status"] == "suspect";
    EXPECT_EQ(suspect, 7u) << "every figure is above a 0.002 GB/s peak";
    EXPECT_EQ(by_default.document["run"]["status"], "complete");
    EXPECT_NE(by_default.process.err.find("7 figures are above the device's peak"), std::string::npos)
        << by_default.process.err;

    auto refusing = faulty_only;
    refusing.push_back("--fail-on-suspect");
    const Outcome refused = run_with(FAULTY_SUSPECT, "suspect-refused", refusing);
    EXPECT_EQ(refused.process.exit_code, 4) << refused.process.err;
    EXPECT_NE(refused.process.err.find("--fail-on-suspect makes that a failure"), std::string::npos)
        << refused.process.err;
    EXPECT_EQ(refused.document["results"].size(), 7u) << "the figures are kept, only the exit code differs";
}
