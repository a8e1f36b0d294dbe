#include "measured_cache.hpp"

#include "cpu_caches.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

namespace vrb::cpu {

namespace {

constexpr uint64_t line_bytes = 64;
constexpr uint64_t huge_page = 2ull << 20;
constexpr int max_passes = 6;
// How much longer a line takes past the cache than in it, at least: one core streams
// from memory at half its L3's rate or less (a Zen 5 VM: 88-95 GB/s in its L3, 27-43
// past it); where it streams faster than that, no knee is found and the total stands.
constexpr double slow_factor = 1.6;
// How long a kept answer stands before a describe measures again (keeping the larger).
constexpr int64_t recheck_seconds = 600;
// Past 1 GiB, a read takes longer than a description should (and no CPU's cache
// instance comes near it).
constexpr uint64_t largest_read = 1ull << 30;

// A file descriptor, closed when it goes (which drops its lock).
class FileDescriptor {
  public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    FileDescriptor(const FileDescriptor &) = delete;
    FileDescriptor &operator=(const FileDescriptor &) = delete;
    ~FileDescriptor()
    {
        if (fd_ >= 0) close(fd_);
    }
    int get() const { return fd_; }

  private:
    int fd_;
};

// An anonymous mapping, unmapped when it goes.
class Mapping {
  public:
    explicit Mapping(uint64_t bytes) : bytes_(bytes)
    {
        void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) base_ = static_cast<char *>(p);
    }
    Mapping(const Mapping &) = delete;
    Mapping &operator=(const Mapping &) = delete;
    ~Mapping()
    {
        if (base_) munmap(base_, bytes_);
    }
    char *base() const { return base_; }

  private:
    char *base_ = nullptr;
    uint64_t bytes_;
};

// One word of each 64-byte line, `laps` times over. Left out of the sanitizers' checks
// (the mapping is not the heap AddressSanitizer guards, and the loads are aligned and in
// bounds): UndefinedBehaviorSanitizer's checks on each load cost several times the load,
// and a sanitized build measured its checks, not its caches (2.6 ns a line in L2, 3.3
// from memory).
__attribute__((no_sanitize("address", "undefined"))) void read_lines(const char *base, uint64_t lines, uint64_t laps)
{
    for (uint64_t lap = 0; lap < laps; ++lap)
        for (uint64_t line = 0; line < lines; ++line)
            (void)*reinterpret_cast<const volatile uint64_t *>(base + line * line_bytes);
}

// The size k steps of sqrt(2) above `from`, in whole lines: a knee is placed to within
// 41 %, and the interpolation narrows that.
uint64_t size_at(uint64_t from, std::size_t k)
{
    return static_cast<uint64_t>(std::ldexp(static_cast<double>(from), static_cast<int>(k / 2)) *
                                 (k % 2 ? M_SQRT2 : 1.0)) /
           line_bytes * line_bytes;
}

// Where the points' step time crosses halfway in log from the fastest to the slower of
// the last two; 0 without two slow points in a row at the end.
uint64_t knee(const std::vector<ReadPoint> &points)
{
    if (points.size() < 3) return 0;
    double fastest = points.front().ns;
    for (const ReadPoint &p : points)
        fastest = std::min(fastest, p.ns);
    const double slowest = std::max(points[points.size() - 1].ns, points[points.size() - 2].ns);
    if (points[points.size() - 1].ns < slow_factor * fastest || points[points.size() - 2].ns < slow_factor * fastest)
        return 0;
    const double half = std::sqrt(fastest * slowest);
    for (std::size_t i = 1; i < points.size(); ++i) {
        const ReadPoint &a = points[i - 1], &b = points[i];
        if (a.ns >= half || b.ns < half) continue;
        const double t = std::log(half / a.ns) / std::log(b.ns / a.ns);
        const double x =
            std::exp(std::log(static_cast<double>(a.bytes)) +
                     t * (std::log(static_cast<double>(b.bytes)) - std::log(static_cast<double>(a.bytes))));
        // Whole 64 KiB, as caches come.
        return std::max<uint64_t>(static_cast<uint64_t>(x) >> 16 << 16, 64 << 10);
    }
    return 0;
}

} // namespace

CacheInstance find_cache_instance(uint64_t from, uint64_t upto, const std::function<double(uint64_t)> &ns_per_line,
                                  const std::function<void()> &between_walks)
{
    CacheInstance out;
    out.bytes = upto;
    if (from == 0 || upto < from) return out;
    // Each pass measures every size again, up to the second slow one in a row, and keeps
    // each size's fastest step: another program's time slice or its traffic through the
    // shared cache only ever slows a step, so a slow point a neighbour made is mended by
    // the next pass, and the walk goes on past it.
    uint64_t largest = 0;
    for (int pass = 0; pass < max_passes; ++pass) {
        if (pass > 0 && between_walks) between_walks();
        double fastest = 0;
        int slow_in_a_row = 0;
        bool reached_upto = false;
        for (std::size_t k = 0; slow_in_a_row < 2; ++k) {
            const uint64_t bytes = size_at(from, k);
            if (bytes > std::min(upto, largest_read)) {
                reached_upto = true;
                break;
            }
            const double ns = ns_per_line(bytes);
            if (!(ns > 0)) {
                out.failed = true;
                out.knee_found = false;
                out.bytes = upto;
                return out;
            }
            if (k == out.points.size()) out.points.push_back({bytes, ns});
            ReadPoint &point = out.points[k];
            point.ns = std::min(point.ns, ns);
            fastest = k == 0 ? point.ns : std::min(fastest, point.ns);
            slow_in_a_row = point.ns >= slow_factor * fastest ? slow_in_a_row + 1 : 0;
            if (slow_in_a_row == 2) out.points.resize(k + 1);
        }
        const uint64_t here = knee(out.points);
        // A walk after the first that went all the way without slowing, each size at its
        // fastest: there is no knee, and a knee an earlier walk found was a neighbour's.
        if (!here && reached_upto && pass > 0) return out;
        // Another program only ever moves a knee down (its lines push the chain's out), so
        // the largest knee is the least disturbed: it stands when a later walk finds it again.
        if (here && largest && here <= largest + largest / 8 && here + here / 8 >= largest) {
            out.bytes = std::max(here, largest);
            out.knee_found = true;
            return out;
        }
        largest = std::max(largest, here);
    }
    if (largest) {
        out.bytes = largest;
        out.knee_found = true;
    }
    return out;
}

double read_ns_per_line(uint64_t bytes)
{
    const uint64_t lines = bytes / line_bytes;
    if (lines < 2) return 0;
    // One huge page more, to start the buffer on a huge page boundary.
    Mapping mapping(bytes + huge_page);
    if (!mapping.base()) return 0;
    char *base = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(mapping.base()) + huge_page - 1) &
                                          ~(uintptr_t(huge_page) - 1));
    madvise(base, bytes, MADV_HUGEPAGE);
    // Written once: every page is had before the clock starts.
    for (uint64_t line = 0; line < lines; ++line)
        *reinterpret_cast<uint64_t *>(base + line * line_bytes) = line;
    // A stretch reads at least 32 MiB, so a size well inside the cache is timed over
    // many laps, not over a few microseconds.
    const uint64_t laps = std::max<uint64_t>(1, (32ull << 20) / bytes);
    auto read = [&] { read_lines(base, lines, laps); };
    read(); // into whatever cache holds it
    // The thread's own CPU time, not the wall clock: on a machine the read shares (the
    // modules a run describes start side by side), time spent descheduled is not a line.
    auto cpu_ns = [] {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
    };
    double best = 0;
    for (int round = 0; round < 3; ++round) {
        const double start = cpu_ns();
        read();
        const double ns = cpu_ns() - start;
        best = round == 0 ? ns : std::min(best, ns);
    }
    return best / static_cast<double>(laps * lines);
}

CacheInstance remembered_cache_instance(const std::string &path, const std::string &key, int64_t now,
                                        const std::function<CacheInstance()> &measure)
{
    const FileDescriptor file(open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
    int locked = -1;
    while (file.get() >= 0 && (locked = flock(file.get(), LOCK_EX)) != 0 && errno == EINTR) {
    }
    if (locked != 0) return measure();
    std::string text(256, '\0');
    const ssize_t got = pread(file.get(), text.data(), text.size() - 1, 0);
    text.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    std::istringstream in(text);
    std::string kept_key, bytes_text, knee_text, time_text;
    std::optional<CacheInstance> kept;
    int64_t kept_at = 0;
    auto number = [](const std::string &t, auto &value) {
        const auto [stop, error] = std::from_chars(t.data(), t.data() + t.size(), value);
        return error == std::errc() && stop == t.data() + t.size();
    };
    uint64_t bytes = 0;
    if (in >> kept_key >> bytes_text >> knee_text >> time_text && kept_key == key &&
        (knee_text == "0" || knee_text == "1") && number(bytes_text, bytes) && bytes > 0 &&
        number(time_text, kept_at)) {
        kept = CacheInstance{bytes, knee_text == "1", false, {}};
        if (now >= kept_at && now - kept_at < recheck_seconds) return *kept;
    }
    CacheInstance measured = measure();
    // A busy machine only ever measures too small: the larger answer stands.
    if (kept && (measured.failed || kept->bytes > measured.bytes)) measured = *kept;
    if (measured.failed) return measured; // the next describe tries again
    const std::string line = key + " " + std::to_string(measured.bytes) + " " + (measured.knee_found ? "1" : "0") +
                             " " + std::to_string(now) + "\n";
    if (ftruncate(file.get(), 0) == 0) {
        [[maybe_unused]] const ssize_t written = pwrite(file.get(), line.data(), line.size(), 0);
    }
    return measured;
}

CacheInstance measured_cache_instance(uint64_t from, uint64_t upto)
{
    static std::mutex once;
    static std::optional<CacheInstance> measured;
    const std::lock_guard lock(once);
    if (measured) return *measured;
    // Walks a tenth of a second apart: what slows one (other programs' lines flooding the
    // shared cache) has often passed by the next.
    auto measure_here = [&] {
        return find_cache_instance(from, upto, read_ns_per_line,
                                   [] { std::this_thread::sleep_for(std::chrono::milliseconds(100)); });
    };
    // On each CPU the process may use (the first eight), the largest answer: a VM's vCPUs
    // can sit on different CCXs, or share theirs with busier neighbours, and a cache taken
    // too small names the next level's figures "memory".
    auto measure = [&] {
        cpu_set_t allowed;
        CPU_ZERO(&allowed);
        if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return measure_here();
        CacheInstance best;
        best.failed = true; // until a CPU answers
        int measured_on = 0;
        for (int cpu = 0; cpu < CPU_SETSIZE && measured_on < 8; ++cpu) {
            if (!CPU_ISSET(cpu, &allowed)) continue;
            ++measured_on;
            CacheInstance here;
            std::thread([&] {
                cpu_set_t one;
                CPU_ZERO(&one);
                CPU_SET(cpu, &one);
                pthread_setaffinity_np(pthread_self(), sizeof one, &one);
                here = measure_here();
            }).join();
            if (here.failed) continue;
            // No knee below the total on one CPU: the total stands.
            if (best.failed || !here.knee_found || here.bytes > best.bytes) best = here;
            if (!best.knee_found) break;
        }
        return best;
    };
    const std::string boot = read_first_line("/proc/sys/kernel/random/boot_id");
    const char *runtime = std::getenv("XDG_RUNTIME_DIR");
    const std::string dir =
        runtime && *runtime ? std::string(runtime) + "/vrambench" : "/tmp/vrambench-" + std::to_string(getuid());
    mkdir(dir.c_str(), 0700);
    struct stat st {};
    // Only a folder of this user's own: another user's could hold a planted answer.
    const bool usable = !boot.empty() && lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() &&
                        (st.st_mode & 022) == 0;
    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    measured = usable ? remembered_cache_instance(dir + "/l3-instance",
                                                  boot + "/" + std::to_string(from) + "/" + std::to_string(upto),
                                                  static_cast<int64_t>(now), measure)
                      : measure();
    return *measured;
}

} // namespace vrb::cpu
