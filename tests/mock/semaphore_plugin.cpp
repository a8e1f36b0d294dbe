// A module whose devices share real timeline semaphores without a GPU, so interop.sync's
// pairing, trips, ordering and skip reasons run in every test run. A semaphore is a
// 64-bit counter in a memfd named "vrambench-futex-counter" (beside it a 32-bit word
// the futex waits on), shared by mapping the fd; it crosses as the fd. The handle's
// api is "futex-mock": no driver's semaphore, and this module imports nothing else.
// Each device has a queue, a thread that runs its device-side waits and signals in the
// order they were given, so a signal enqueued after a wait really waits.
// Built twice from this source (MOCK_SEMAPHORE_NAME "sema" and "semb"): two modules of
// one API, so a pair between two modules forms as between Vulkan and CUDA.
//   VRAMBENCH_MOCK_NO_EXPORT      a module name whose devices refuse to create an
//                                 exportable semaphore (as CUDA does), naming why
//   VRAMBENCH_MOCK_IGNORE_WAITS   a module name whose device-side waits do nothing
//                                 (a broken module, for the probe's ordering check)
#include <vrambench/external_handle.hpp>
#include <vrambench/plugin_table.hpp>

#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <linux/futex.h>
#include <memory>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

#ifndef MOCK_SEMAPHORE_NAME
#error "MOCK_SEMAPHORE_NAME names the module"
#endif

namespace {

using vrb::plugin::fail;
using vrb::plugin::UniqueFd;

constexpr char kApi[] = "futex-mock";
constexpr char kCounterName[] = "vrambench-futex-counter";
constexpr uint8_t kDriverUuid[16] = {'f', 'u', 't', 'e', 'x', '-', 'm', 'o', 'c', 'k', 0, 0, 0, 0, 0, 1};
constexpr uint32_t kDevices = 2;
constexpr uint64_t kMemoryBytes = 64ull << 20;

bool named_in(const char *variable)
{
    const char *value = std::getenv(variable);
    return value && std::strcmp(value, MOCK_SEMAPHORE_NAME) == 0;
}

void card_uuid(uint32_t index, uint8_t (&uuid)[16])
{
    // The same card in both modules: the UUID depends on the index only.
    std::memset(uuid, 0, sizeof uuid);
    std::memcpy(uuid, "futexcard", 9);
    uuid[15] = static_cast<uint8_t>(index + 1);
}

// The shared words: the counter, and the word a futex waits on, bumped at each signal.
struct Words {
    uint64_t value;
    uint32_t sequence;
    uint32_t reserved;
};

// One mapping of a counter's memfd.
class Counter {
  public:
    explicit Counter(UniqueFd fd) : fd_(std::move(fd))
    {
        void *at = ::mmap(nullptr, sizeof(Words), PROT_READ | PROT_WRITE, MAP_SHARED, fd_.get(), 0);
        if (at == MAP_FAILED) fail(VRB_ERROR_DEVICE, std::string("cannot map the counter: ") + std::strerror(errno));
        words_ = static_cast<Words *>(at);
    }
    ~Counter() { ::munmap(words_, sizeof(Words)); }
    Counter(const Counter &) = delete;
    Counter &operator=(const Counter &) = delete;

    int fd() const { return fd_.get(); }
    uint64_t value() const { return __atomic_load_n(&words_->value, __ATOMIC_ACQUIRE); }
    void signal(uint64_t value)
    {
        uint64_t now = this->value();
        while (now < value &&
               !__atomic_compare_exchange_n(&words_->value, &now, value, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        }
        __atomic_add_fetch(&words_->sequence, 1, __ATOMIC_ACQ_REL);
        // Not FUTEX_PRIVATE: the waiter may have mapped the fd at another address.
        ::syscall(SYS_futex, &words_->sequence, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
    }
    // Until the counter reaches `value` or `deadline`; whether it reached it.
    template <typename Stop> bool wait(uint64_t value, std::chrono::steady_clock::time_point deadline, Stop stop)
    {
        for (;;) {
            const uint32_t sequence = __atomic_load_n(&words_->sequence, __ATOMIC_ACQUIRE);
            if (this->value() >= value) return true;
            const auto now = std::chrono::steady_clock::now();
            if (now >= deadline || stop()) return false;
            // A slice at most, so a stop request is seen.
            const auto left = std::min<std::chrono::nanoseconds>(deadline - now, std::chrono::milliseconds(50));
            timespec timeout{static_cast<time_t>(left.count() / 1'000'000'000),
                             static_cast<long>(left.count() % 1'000'000'000)};
            ::syscall(SYS_futex, &words_->sequence, FUTEX_WAIT, sequence, &timeout, nullptr, 0);
        }
    }

  private:
    UniqueFd fd_;
    Words *words_ = nullptr;
};

// What a futex-mock semaphore fd must be: a memfd of this module's name, of the words'
// size. Anything else (a file, another memfd, memory) is refused before it is mapped.
void check_counter_fd(int fd)
{
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    char target[256] = {};
    const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
    const std::string name = n > 0 ? std::string(target, static_cast<std::size_t>(n)) : "";
    if (name.rfind(std::string("/memfd:") + kCounterName, 0) != 0)
        fail(VRB_ERROR_INVALID_ARGUMENT, "file descriptor " + std::to_string(fd) + " is " +
                                             (name.empty() ? std::string("unnamed") : name) +
                                             ", not a futex-mock semaphore's counter");
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != static_cast<off_t>(sizeof(Words)))
        fail(VRB_ERROR_INVALID_ARGUMENT, "file descriptor " + std::to_string(fd) + " is not a counter of " +
                                             std::to_string(sizeof(Words)) + " bytes");
}

class SemDevice;

class SemSemaphore {
  public:
    SemSemaphore(SemDevice &owner, std::shared_ptr<Counter> counter, bool exportable)
        : owner_(owner), counter_(std::move(counter)), exportable_(exportable)
    {
    }
    SemDevice &owner() const { return owner_; }
    const std::shared_ptr<Counter> &counter() const { return counter_; }
    void export_handle(vrb_external_handle &h);
    void host_wait(uint64_t value, uint64_t timeout_ns)
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(timeout_ns);
        if (!counter_->wait(value, deadline, [] { return false; }))
            fail(VRB_ERROR_DEVICE, "the semaphore holds " + std::to_string(counter_->value()) + " after " +
                                       std::to_string(timeout_ns) + " ns of waiting for " + std::to_string(value));
    }

  private:
    SemDevice &owner_;
    std::shared_ptr<Counter> counter_; // queued commands keep it mapped
    bool exportable_;
};

class SemBuffer {
  public:
    explicit SemBuffer(uint64_t bytes) : bytes_(bytes) {}
    uint64_t size() const { return bytes_.size(); }
    void upload(uint64_t offset, const void *src, uint64_t bytes) { std::memcpy(bytes_.data() + offset, src, bytes); }
    void download(uint64_t offset, void *dst, uint64_t bytes) { std::memcpy(dst, bytes_.data() + offset, bytes); }

  private:
    std::vector<std::byte> bytes_;
};

class SemDevice {
  public:
    explicit SemDevice(uint32_t index) : index_(index), queue_([this] { drain(); }) {}
    ~SemDevice()
    {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        ready_.notify_all();
        queue_.join();
    }
    SemDevice(const SemDevice &) = delete;
    SemDevice &operator=(const SemDevice &) = delete;

    uint32_t index() const { return index_; }
    uint32_t memory_kind_count() { return 1; }
    void describe(uint32_t, vrb_memory_kind_info &info)
    {
        vrb::plugin::copy_string(info.name, "device");
        info.flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS;
        info.max_allocation_bytes = kMemoryBytes;
    }
    std::unique_ptr<SemBuffer> alloc(uint32_t, uint64_t bytes)
    {
        if (bytes > kMemoryBytes) fail(VRB_ERROR_OUT_OF_MEMORY, "larger than the mock device's memory");
        return std::make_unique<SemBuffer>(bytes);
    }
    void run(const vrb_operation &, std::span<double>, vrb_op_output &)
    {
        fail(VRB_ERROR_UNSUPPORTED, "the futex-mock module shares semaphores and runs no operation");
    }

    std::unique_ptr<SemSemaphore> create_exportable_semaphore(uint32_t handle_type)
    {
        if (named_in("VRAMBENCH_MOCK_NO_EXPORT"))
            fail(VRB_ERROR_UNSUPPORTED, std::string(MOCK_SEMAPHORE_NAME) +
                                            " exports no semaphore: it only imports one (VRAMBENCH_MOCK_NO_EXPORT)");
        if (handle_type != VRB_EXTERNAL_OPAQUE_FD)
            fail(VRB_ERROR_UNSUPPORTED,
                 "futex-mock semaphores cross as opaque fds only, not handle type " + std::to_string(handle_type));
        UniqueFd fd(::memfd_create(kCounterName, MFD_CLOEXEC));
        if (fd.get() < 0) fail(VRB_ERROR_DEVICE, std::string("memfd_create: ") + std::strerror(errno));
        if (::ftruncate(fd.get(), sizeof(Words)) != 0)
            fail(VRB_ERROR_DEVICE, std::string("sizing the counter: ") + std::strerror(errno));
        return std::make_unique<SemSemaphore>(*this, std::make_shared<Counter>(std::move(fd)), true);
    }

    std::unique_ptr<SemSemaphore> import_semaphore(const vrb_external_handle &h)
    {
        if (!vrb::plugin::handle_has_v12_fields(h))
            fail(VRB_ERROR_INVALID_ARGUMENT, "the external handle is too small for the UUIDs of ABI 1.2");
        if (h.type != VRB_EXTERNAL_OPAQUE_FD)
            fail(VRB_ERROR_UNSUPPORTED, "semaphores cross as opaque fds only, not as type " + std::to_string(h.type));
        if (vrb::plugin::handle_api(h) != kApi)
            fail(VRB_ERROR_UNSUPPORTED, "the semaphore was exported by " + std::string(vrb::plugin::handle_api(h)) +
                                            ": this module imports only futex-mock counters");
        if (h.bytes != 0 || h.allocation_bytes != 0)
            fail(VRB_ERROR_INVALID_ARGUMENT, "the handle describes " + std::to_string(h.allocation_bytes) +
                                                 " bytes of memory: it is not a semaphore");
        vrb::plugin::ImporterIdentity me;
        uint8_t uuid[16];
        card_uuid(index_, uuid);
        me.api = kApi;
        me.uuids_known = true;
        me.device_uuid = &uuid;
        me.driver_uuid = &kDriverUuid;
        me.device_name = "futex-mock device";
        vrb::plugin::check_same_card(h, me, "semaphore");
        // A driver that answers "not supported" when asked to import (HIP on a device
        // without timeline semaphores).
        if (named_in("VRAMBENCH_MOCK_IMPORT_UNSUPPORTED"))
            fail(VRB_ERROR_UNSUPPORTED, std::string(MOCK_SEMAPHORE_NAME) +
                                            " imports no timeline semaphore here: the driver answered not supported "
                                            "(VRAMBENCH_MOCK_IMPORT_UNSUPPORTED)");
        if (h.handle < 0 || h.handle > INT32_MAX || ::fcntl(static_cast<int>(h.handle), F_GETFD) == -1)
            fail(VRB_ERROR_INVALID_ARGUMENT,
                 "file descriptor " + std::to_string(h.handle) + " is not open: no semaphore was imported");
        check_counter_fd(static_cast<int>(h.handle));
        // The mapping keeps a duplicate: the caller's fd is closed only once all succeeded.
        UniqueFd duplicate(::fcntl(static_cast<int>(h.handle), F_DUPFD_CLOEXEC, 0));
        if (duplicate.get() < 0) fail(VRB_ERROR_DEVICE, std::string("dup: ") + std::strerror(errno));
        auto imported = std::make_unique<SemSemaphore>(*this, std::make_shared<Counter>(std::move(duplicate)), false);
        ::close(static_cast<int>(h.handle)); // imported: the fd is ours
        return imported;
    }

    void signal(SemSemaphore &s, uint64_t value) { enqueue({Command::signal, s.counter(), value}); }
    void device_wait(SemSemaphore &s, uint64_t value)
    {
        if (named_in("VRAMBENCH_MOCK_IGNORE_WAITS")) return;
        enqueue({Command::wait, s.counter(), value});
    }

  private:
    struct Command {
        enum Kind { wait, signal } kind;
        std::shared_ptr<Counter> counter;
        uint64_t value;
    };
    void enqueue(Command command)
    {
        {
            std::lock_guard lock(mutex_);
            commands_.push_back(std::move(command));
        }
        ready_.notify_one();
    }
    bool stopping()
    {
        std::lock_guard lock(mutex_);
        return stop_;
    }
    // The device's queue: one command at a time, in order. A wait holds every command
    // behind it; closing the device ends a wait that would never finish.
    void drain()
    {
        for (;;) {
            Command command;
            {
                std::unique_lock lock(mutex_);
                ready_.wait(lock, [&] { return stop_ || !commands_.empty(); });
                if (stop_) return;
                command = std::move(commands_.front());
                commands_.pop_front();
            }
            if (command.kind == Command::signal) {
                command.counter->signal(command.value);
                continue;
            }
            if (!command.counter->wait(command.value, std::chrono::steady_clock::time_point::max(),
                                       [&] { return stopping(); }))
                return;
        }
    }

    uint32_t index_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<Command> commands_;
    bool stop_ = false;
    std::thread queue_; // last: started once everything it uses exists
};

void SemSemaphore::export_handle(vrb_external_handle &h)
{
    if (!exportable_) fail(VRB_ERROR_UNSUPPORTED, "an imported semaphore is not exported again");
    const int fd = ::fcntl(counter_->fd(), F_DUPFD_CLOEXEC, 0);
    if (fd < 0) fail(VRB_ERROR_DEVICE, std::string("dup: ") + std::strerror(errno));
    h.type = VRB_EXTERNAL_OPAQUE_FD;
    h.handle = fd;
    h.bytes = 0;
    h.allocation_bytes = 0;
    h.memory_type_index = UINT32_MAX;
    h.flags = VRB_EXTERNAL_UUIDS_KNOWN;
    card_uuid(owner_.index(), h.device_uuid);
    std::memcpy(h.driver_uuid, kDriverUuid, sizeof h.driver_uuid);
    vrb::plugin::copy_string(h.api, kApi);
}

class SemContext {
  public:
    explicit SemContext(const vrb_host_table *) {}
    uint32_t device_count() { return kDevices; }
    void describe(uint32_t index, vrb_device_info &info)
    {
        vrb::plugin::copy_string(info.name, "futex-mock device");
        vrb::plugin::copy_string(info.vendor, "vrambench tests");
        vrb::plugin::copy_string(info.api, kApi);
        info.type = VRB_DEVICE_DISCRETE_GPU;
        info.known = VRB_KNOWN_UUID | VRB_KNOWN_TOTAL_MEMORY;
        card_uuid(index, info.uuid);
        info.total_memory_bytes = kMemoryBytes;
        info.heap_count = 1;
        info.heaps[0].bytes = kMemoryBytes;
        info.heaps[0].flags = VRB_MEMORY_DEVICE_LOCAL;
    }
    std::unique_ptr<SemDevice> open(uint32_t index) { return std::make_unique<SemDevice>(index); }
};

const vrb_plugin_table table = vrb::plugin::make_table<SemContext, SemDevice, SemBuffer, SemSemaphore>(
    {MOCK_SEMAPHORE_NAME, "timeline semaphores as futex counters in memfds, for the interop.sync tests", "1.0"});

} // namespace

VRB_DEFINE_PLUGIN_ENTRY(table)
