// Errors inside the core, and the exit codes they map to.
#pragma once

#include <stdexcept>
#include <string>

namespace vrb {

// The process exit codes, documented in --help and the README.
enum class ExitCode : int {
    ok = 0,
    usage = 2,           // bad flag, bad value, bad file given by the user
    run_failed = 3,      // a backend, device or operation failed
    verification = 4,    // a measurement ran but its result was wrong
    below_threshold = 5, // compare --fail-below: a figure fell below the gate's ratio
    interrupted = 130    // the user stopped the run; what finished was kept
};

// An error with the exit code it should end the program with.
class Error : public std::runtime_error {
  public:
    Error(ExitCode code, const std::string &message) : std::runtime_error(message), code_(code) {}
    ExitCode code() const noexcept { return code_; }

  private:
    ExitCode code_;
};

struct UsageError : Error {
    explicit UsageError(const std::string &message) : Error(ExitCode::usage, message) {}
};

struct RunError : Error {
    explicit RunError(const std::string &message) : Error(ExitCode::run_failed, message) {}
};

} // namespace vrb
