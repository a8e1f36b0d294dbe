// Running one backend in a worker process: the same executable in a hidden mode,
// loading only that module, streaming frames back (worker_protocol.hpp). A driver
// that crashes, hangs or exits costs that backend's results, never the run's.
#pragma once

#include <vrambench/core/probes/probe.hpp>
#include <vrambench/core/run/worker_protocol.hpp>

#include <filesystem>
#include <functional>
#include <string>

namespace vrb {

// ------------------------------------------------------------ the child's side

// `vrambench __worker describe MODULE` loads the module and reports its backend and
// every device; `... run MODULE` then reads a run request (JSON) from stdin and runs
// it. Frames go to file descriptor 3. Returns the process exit code.
int worker_main(const std::string &mode, const std::filesystem::path &module);

inline constexpr int worker_frame_fd = 3;

// ------------------------------------------------------------ the parent's side

struct WorkerOutcome {
    enum class Kind { finished, crashed, timed_out, exited, protocol_error, interrupted };
    Kind kind = Kind::finished;
    int exit_code = 0;  // the worker's own exit code when it finished or exited
    std::string detail; // "crashed with signal 11 (SIGSEGV)", "no frame for 30 s" ...
    // The worker's peak resident memory (getrusage's ru_maxrss of the reaped process);
    // 0 where it was not reaped by run_worker's own end (stopped, timed out).
    uint64_t peak_resident_bytes = 0;
};

// The backend state a fault is recorded as in the result set.
std::string_view backend_state(WorkerOutcome::Kind kind);

struct WorkerOptions {
    std::string mode; // "describe" or "run"
    std::filesystem::path module;
    nlohmann::json request;       // written to the worker's stdin (run mode)
    double timeout_seconds = 600; // longest silence between two frames
};

// Starts the worker and calls on_frame for every frame until it ends. Stops it when it
// falls silent past the timeout, breaks the protocol, or the user cancels the run.
WorkerOutcome run_worker(const WorkerOptions &options, const std::function<void(const Frame &)> &on_frame);

} // namespace vrb
