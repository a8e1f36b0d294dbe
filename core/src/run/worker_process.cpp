// The parent's side of a worker: spawn, read frames, watch the clock, classify the end.
#include <vrambench/core/modules/backend.hpp>
#include <vrambench/core/run/child_processes.hpp>
#include <vrambench/core/run/worker.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <set>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
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

// A file descriptor that becomes readable when the process ends, or none where the
// kernel is older than pidfd_open (5.3): the loop then asks waitpid at each turn.
Fd exit_watch(pid_t pid)
{
#ifdef SYS_pidfd_open
    return Fd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
#else
    (void)pid;
    return Fd();
#endif
}

// Workers of one run may run side by side (run --concurrent), each from a thread of
// its own. Ending one worker's leftovers must spare its siblings: every live worker is
// listed here, and starting a worker and ending leftovers take turns under one lock, so
// no sibling is forked between the look at this process's children and the kill. An
// orphan a sibling's module left behind is a stray of this process like any other.
struct LiveWorkers {
    std::mutex lock;
    std::set<pid_t> pids;
};

LiveWorkers &live_workers()
{
    static LiveWorkers live;
    return live;
}

// A started worker: whatever way run_worker leaves, the worker is reaped and every
// process it left behind (a helper its module forked, setsid() or not) is ended.
class Worker {
  public:
    // Called with live_workers().lock held, right after the fork.
    Worker(pid_t pid, std::set<pid_t> children_before) : pid_(pid), before_(std::move(children_before))
    {
        live_workers().pids.insert(pid_);
    }
    ~Worker()
    {
        if (!reaped_) stop(false);
        end_leftovers();
    }
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;

    int status() const { return status_; }
    // The worker's peak resident memory, as the kernel counted it when it was reaped
    // (ru_maxrss, KiB on Linux); 0 before.
    uint64_t peak_resident_bytes() const { return reaped_ ? static_cast<uint64_t>(usage_.ru_maxrss) * 1024 : 0; }

    // Reaps the worker if it has ended.
    bool poll_exit()
    {
        if (reaped_) return true;
        if (::wait4(pid_, &status_, WNOHANG, &usage_) != pid_) return false;
        reaped();
        return true;
    }
    void wait()
    {
        while (!reaped_ && ::wait4(pid_, &status_, 0, &usage_) < 0 && errno == EINTR) {
        }
        reaped();
    }
    // Ends a worker that will not end by itself: SIGTERM, a moment's grace, then SIGKILL.
    void stop(bool gently)
    {
        if (reaped_) return;
        if (gently) {
            ::kill(pid_, SIGTERM);
            for (int i = 0; i < 40; ++i) {
                if (poll_exit()) return;
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        }
        ::kill(pid_, SIGKILL);
        wait();
    }
    // The worker has ended: end what it left, so no one else holds the frame pipe.
    void end_leftovers()
    {
        const std::lock_guard hold(live_workers().lock);
        std::set<pid_t> keep = before_;
        keep.insert(live_workers().pids.begin(), live_workers().pids.end());
        end_children_except(keep);
    }

  private:
    void reaped()
    {
        if (reaped_) return;
        reaped_ = true;
        const std::lock_guard hold(live_workers().lock);
        live_workers().pids.erase(pid_);
    }

    pid_t pid_;
    std::set<pid_t> before_;
    bool reaped_ = false;
    int status_ = 0;
    rusage usage_{};
};

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
    // Orphans of the worker's descendants come here rather than to init, so they can be
    // ended with it; what this process had before is left alone.
    adopt_orphans();
    // Made before the fork: the child of a process with several threads (workers
    // started side by side) only calls what is safe between fork and exec.
    const char *self = "/proc/self/exe";
    const std::string module = options.module.string();
    const char *argv[] = {"vrambench", "__worker", options.mode.c_str(), module.c_str(), nullptr};
    std::unique_lock starting(live_workers().lock);
    std::set<pid_t> before = child_processes();
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
        ::execv(self, const_cast<char *const *>(argv));
        ::_exit(126);
    }
    Worker worker(pid, std::move(before));
    starting.unlock();
    const Fd exited = exit_watch(pid);
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
    // Frames already written stay readable after the worker ends; the pipe's end of
    // file only comes once everyone holding it (a module's helper too) is gone.
    auto read_frames = [&](int wait_ms) -> bool {
        pollfd p{frames.read.get(), POLLIN, 0};
        const int ready = ::poll(&p, 1, wait_ms);
        if (ready <= 0) return ready < 0 && errno == EINTR;
        const ssize_t n = ::read(frames.read.get(), buffer, sizeof buffer);
        if (n < 0) return errno == EINTR;
        if (n == 0) return false;
        decoder.feed(buffer, static_cast<std::size_t>(n));
        while (auto frame = decoder.next()) {
            last_frame = Clock::now();
            if (frame->type == FrameType::done) {
                done = true;
                outcome.exit_code = frame->payload.value("exit_code", 0);
            }
            on_frame(*frame);
        }
        return true;
    };
    try {
        bool pipe_open = true;
        for (;;) {
            if (cancel_requested()) {
                worker.stop(true);
                outcome.kind = WorkerOutcome::Kind::interrupted;
                outcome.detail = "stopped: the run was interrupted";
                return outcome;
            }
            const double silent = std::chrono::duration<double>(Clock::now() - last_frame).count();
            if (silent > options.timeout_seconds) {
                worker.stop(false);
                outcome.kind = WorkerOutcome::Kind::timed_out;
                outcome.detail = fmt::format("timed out: no progress for {:.0f} s (--timeout), the worker was killed",
                                             options.timeout_seconds);
                return outcome;
            }
            // The worker's end is watched beside its pipe: a helper it forked may hold
            // the pipe open long after the worker itself has crashed or exited.
            pollfd p[2] = {{pipe_open ? frames.read.get() : -1, POLLIN, 0}, {exited.get(), POLLIN, 0}};
            const int ready = ::poll(p, 2, 100);
            if (ready < 0 && errno != EINTR) break;
            if (worker.poll_exit()) break;
            if (ready <= 0 || !pipe_open || !(p[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            pipe_open = read_frames(0);
        }
        worker.wait();
        worker.end_leftovers();
        // Everything the worker wrote before it ended is still in the pipe.
        while (read_frames(1000)) {
        }
    } catch (const ProtocolError &e) {
        worker.stop(false);
        outcome.kind = WorkerOutcome::Kind::protocol_error;
        outcome.detail = fmt::format("protocol error: {}; the worker was stopped", e.what());
        return outcome;
    }
    const int status = worker.status();
    outcome.peak_resident_bytes = worker.peak_resident_bytes();
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
