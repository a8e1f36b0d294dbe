// The host side of the plugin ABI: a loaded module, its initialised backend, opened
// devices and buffers, each an RAII object that gives its resource back.
//
// Every failed ABI call becomes a BackendError carrying the status and the module's
// own message; nothing of the C boundary leaks past this header.
#pragma once

#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/buffer_pool.hpp>
#include <vrambench/plugin.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace vrb {

class BackendError : public Error {
  public:
    BackendError(vrb_status status, const std::string &message) : Error(ExitCode::run_failed, message), status_(status)
    {
    }
    vrb_status status() const noexcept { return status_; }

  private:
    vrb_status status_;
};

// A module whose answer breaks the ABI's rules (ok with nothing handed back, a count past
// the bounds below, a yes/no that is neither): never taken for an answer, whoever asked.
struct BrokenModuleError : BackendError {
    explicit BrokenModuleError(const std::string &message) : BackendError(VRB_ERROR_INTERNAL, message) {}
};

// Whether `e` is a module declining what it was asked (VRB_ERROR_UNSUPPORTED, with or
// without an op_supported slot that could have said so first): what it declines is
// waived with its words, never failed.
inline bool declined(const Error &e)
{
    const auto *b = dynamic_cast<const BackendError *>(&e);
    return b && b->status() == VRB_ERROR_UNSUPPORTED;
}

std::string_view to_string(vrb_status status);

// Bounds past which a module's answer is taken for a broken module, not a machine:
// a count of 4294967295 devices would otherwise be allocated for.
inline constexpr uint32_t max_devices = 1024;
inline constexpr uint32_t max_memory_kinds = 64;
inline constexpr std::size_t max_module_name_bytes = 32;

// A dlopen()ed module whose entry answered with a table the host can use.
class Module {
  public:
    // Throws LoadError with a message naming the file and what went wrong.
    static std::shared_ptr<Module> load(const std::filesystem::path &file);
    ~Module();
    Module(const Module &) = delete;
    Module &operator=(const Module &) = delete;

    const std::filesystem::path &file() const { return file_; }
    const vrb_plugin_table &table() const { return *table_; }
    uint32_t version() const { return version_; }
    std::string name() const;

    // A function slot, or nullptr when the module's table is too short to have it.
    template <typename Member> Member slot(Member vrb_plugin_table::*member) const
    {
        const auto offset = static_cast<std::size_t>(reinterpret_cast<const char *>(&(table_->*member)) -
                                                     reinterpret_cast<const char *>(table_));
        if (offset + sizeof(table_->*member) > table_->struct_size) return nullptr;
        return table_->*member;
    }

    // Throws BackendError with the module's message when status is not VRB_OK.
    void check(vrb_status status, std::string_view call) const;
    // Throws BackendError naming the module when a call that answered VRB_OK left its
    // out pointer NULL, or answered a count past `most`.
    void check_handle(const void *handle, std::string_view call) const;
    void check_count(uint64_t count, uint64_t most, std::string_view what, std::string_view call) const;

  private:
    Module() = default;
    std::filesystem::path file_;
    std::string name_; // checked against plugin.h's rule once, at load
    void *handle_ = nullptr;
    const vrb_plugin_table *table_ = nullptr;
    uint32_t version_ = 0;
};

struct LoadError : Error {
    explicit LoadError(const std::string &message) : Error(ExitCode::run_failed, message) {}
};

class Buffer;
class Backend;

// An opened device of a backend.
class Device {
  public:
    Device(std::shared_ptr<const Backend> backend, vrb_device *handle, uint32_t index);
    ~Device();
    Device(const Device &) = delete;
    Device &operator=(const Device &) = delete;

    uint32_t index() const { return index_; }
    // Whether the device is a GPU (discrete, integrated or virtual), as first described:
    // a GPU lowers its clocks when idle, a CPU's figures need no warming. Throws
    // BackendError as describe() does.
    bool is_gpu() const;
    // The description as the API gives it now: free memory moves while a run goes on.
    vrb_device_info describe() const;
    std::vector<vrb_memory_kind_info> memory_kinds() const;
    // The first kind with all of `flags`, or throws RunError naming the wanted flags.
    uint32_t find_kind(uint32_t flags) const;

    // A new buffer from the driver, for probes that measure allocation: the run's
    // pool is emptied first, so nothing it holds is counted against the device.
    // Throws BackendError; an out-of-memory status keeps VRB_ERROR_OUT_OF_MEMORY.
    std::unique_ptr<Buffer> allocate(uint32_t kind, uint64_t bytes);
    // A buffer for measuring through: reused from the run's pool where one fits
    // (buffer_pool.hpp), so its pages were touched before. Contents are undefined.
    std::unique_ptr<Buffer> acquire(uint32_t kind, uint64_t bytes);
    BufferPool &pool() { return *pool_; }

    struct RunOutput {
        std::vector<double> seconds;
        vrb_op_output output{};
    };
    RunOutput run(const vrb_operation &op, uint32_t repetitions);
    // Whether run() does `op_kind` at `element_bytes` on buffers of `kind`, asked of the
    // module's op_supported slot (ABI 1.3). Nothing when the module has no such slot:
    // then only running it tells. Throws BackendError when the module refuses the question.
    std::optional<bool> supports(uint32_t op_kind, uint32_t element_bytes, uint32_t kind) const;
    // What this device can do with the memory of `peer` (another device of the same
    // loaded backend), as VRB_PEER_* bits from the module's peer_query slot (ABI 1.5).
    // Nothing when the module has no such slot. Throws BackendError when it refuses.
    std::optional<uint32_t> peer_flags(const Device &peer) const;

    const Module &module() const { return *module_; }
    std::shared_ptr<Module> module_ptr() const { return module_; }
    vrb_device *handle() const { return handle_; }
    // The backend that opened it: a second device of the same card comes from here.
    const Backend &backend() const { return *backend_; }

  private:
    std::shared_ptr<const Backend> backend_; // the context outlives the device
    std::shared_ptr<Module> module_;
    vrb_device *handle_;
    uint32_t index_;
    mutable std::optional<bool> gpu_;
    std::shared_ptr<BufferPool> pool_; // emptied before the device closes
};

class Buffer {
  public:
    Buffer(std::shared_ptr<Module> module, vrb_buffer *handle, uint64_t bytes, uint32_t kind);
    ~Buffer();
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;

    uint64_t bytes() const { return bytes_; }
    uint32_t kind() const { return kind_; }
    vrb_buffer *handle() const { return handle_; }
    const Module &module() const { return *module_; }
    void upload(uint64_t offset, std::span<const std::byte> data);
    void download(uint64_t offset, std::span<std::byte> data) const;

    // How many buffers are alive across all devices: tests use it to prove release.
    static int64_t live_count();

  private:
    friend class BufferPool;
    // A leased buffer's memory goes back to its pool, while the pool exists.
    void return_to(std::weak_ptr<BufferPool> pool, uint64_t capacity)
    {
        pool_ = std::move(pool);
        capacity_ = capacity;
    }

    std::shared_ptr<Module> module_;
    vrb_buffer *handle_;
    uint64_t bytes_;
    uint32_t kind_;
    std::weak_ptr<BufferPool> pool_;
    uint64_t capacity_ = 0;
};

// An initialised backend: a module plus its context.
class Backend : public std::enable_shared_from_this<Backend> {
  public:
    // Throws LoadError; an unavailable backend throws UnavailableError with its reason.
    static std::shared_ptr<Backend> create(std::shared_ptr<Module> module, const vrb_host_table *host);
    ~Backend();
    Backend(const Backend &) = delete;
    Backend &operator=(const Backend &) = delete;

    std::string name() const { return module_->name(); }
    const Module &module() const { return *module_; }
    std::shared_ptr<Module> module_ptr() const { return module_; }
    uint32_t device_count() const;
    vrb_device_info describe(uint32_t index) const;
    std::unique_ptr<Device> open(uint32_t index) const;
    // For calling the module's table directly (the conformance kit does).
    vrb_context *context() const { return context_; }

  private:
    Backend() = default;
    std::shared_ptr<Module> module_;
    vrb_context *context_ = nullptr;
};

struct UnavailableError : Error {
    explicit UnavailableError(const std::string &message) : Error(ExitCode::run_failed, message) {}
};

// The host table every module gets: logging to stderr and the cancellation flag.
const vrb_host_table *default_host_table();
void request_cancel();
bool cancel_requested();

} // namespace vrb
