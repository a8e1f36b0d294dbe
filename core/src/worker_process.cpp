// The parent's side of a worker: spawn, read frames, watch the clock, classify the end.
#include <vrambench/core/backend.hpp>
#include <vrambench/core/worker.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace vrb {

namespace {

using Clock = std::chrono::steady_clock;

// Owns a file descriptor.
class Fd {
  public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(Fd &&other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    Fd &operator=(Fd &&other) noexcept
    {
        reset();
        fd_ = std::exchange(other.fd_, -1);
        return *this;
    }
    ~Fd() { reset(); }
    int get() const { return fd_; }
    void reset()
    {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

  private:
    int fd_ = -1;
};

struct Pipe {
    Fd read, write;
};

Pipe make_pipe()
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw RunError(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
    return {Fd(fds[0]), Fd(fds[1])};
}

std::string signal_text(int sig)
{
    const char *name = sigabbrev_np(sig);
    return fmt::format("signal {} (SIG{})", sig, name ? name : "?");
}

// Ends a worker that will not end by itself: SIGTERM, a moment's grace, then SIGKILL.
int stop(pid_t pid, bool gently)
{
    int status = 0;
    if (gently) {
        ::kill(pid, SIGTERM);
        for (int i = 0; i < 40; ++i) {
            if (::waitpid(pid, &status, WNOHANG) == pid) return status;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    ::kill(pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

} // namespace

std::string_view backend_state(WorkerOutcome::Kind kind)
{
    switch (kind) {
    case WorkerOutcome::Kind::finished: return "available";
    case WorkerOutcome::Kind::crashed: return "crashed";
    case WorkerOutcome::Kind::timed_out: return "timed-out";
    case WorkerOutcome::Kind::exited: return "exited";
    case WorkerOutcome::Kind::protocol_error: return "protocol-error";
    case WorkerOutcome::Kind::interrupted: return "failed";
    }
    return "failed";
}

WorkerOutcome run_worker(const WorkerOptions &options, const std::function<void(const Frame &)> &on_frame)
{
    Pipe frames = make_pipe(), input = make_pipe();
    const std::string request = options.request.is_null() ? std::string() : options.request.dump();
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) throw RunError(fmt::format("cannot start a worker: {}", std::strerror(errno)));
    if (pid == 0) {
        // A worker must not outlive a parent killed without the chance to stop it.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(125);
        ::dup2(input.read.get(), STDIN_FILENO);
        ::dup2(frames.write.get(), worker_frame_fd);
        // dup2 clears close-on-exec on the targets; everything else stays closed.
        const char *self = "/proc/self/exe";
        const std::string module = options.module.string();
        const char *argv[] = {"vrambench", "__worker", options.mode.c_str(), module.c_str(), nullptr};
        ::execv(self, const_cast<char *const *>(argv));
        ::_exit(126);
    }
    frames.write.reset();
    input.read.reset();
    // The request is small; a worker that dies before reading it only breaks the pipe.
    std::signal(SIGPIPE, SIG_IGN);
    if (!request.empty()) (void)!::write(input.write.get(), request.data(), request.size());
    input.write.reset();

    WorkerOutcome outcome;
    FrameDecoder decoder;
    bool done = false;
    auto last_frame = Clock::now();
    char buffer[65536];
    for (;;) {
        if (cancel_requested()) {
            stop(pid, true);
            outcome.kind = WorkerOutcome::Kind::interrupted;
            outcome.detail = "stopped: the run was interrupted";
            return outcome;
        }
        const double silent = std::chrono::duration<double>(Clock::now() - last_frame).count();
        if (silent > options.timeout_seconds) {
            stop(pid, false);
            outcome.kind = WorkerOutcome::Kind::timed_out;
            outcome.detail = fmt::format("timed out: no progress for {:.0f} s (--timeout), the worker was killed",
                                         options.timeout_seconds);
            return outcome;
        }
        pollfd p{frames.read.get(), POLLIN, 0};
        const int ready = ::poll(&p, 1, 100);
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        const ssize_t n = ::read(frames.read.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break; // the worker closed its end: it is ending
        decoder.feed(buffer, static_cast<std::size_t>(n));
        try {
            while (auto frame = decoder.next()) {
                last_frame = Clock::now();
                if (frame->type == FrameType::done) {
                    done = true;
                    outcome.exit_code = frame->payload.value("exit_code", 0);
                }
                on_frame(*frame);
            }
        } catch (const ProtocolError &e) {
            stop(pid, false);
            outcome.kind = WorkerOutcome::Kind::protocol_error;
            outcome.detail = fmt::format("protocol error: {}; the worker was stopped", e.what());
            return outcome;
        }
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status)) {
        outcome.kind = WorkerOutcome::Kind::crashed;
        outcome.detail = "crashed with " + signal_text(WTERMSIG(status));
    } else if (!done || !decoder.empty()) {
        outcome.kind = WorkerOutcome::Kind::exited;
        outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        outcome.detail = fmt::format("exited early with status {} before finishing", outcome.exit_code);
    }
    return outcome;
}

} // namespace vrb
