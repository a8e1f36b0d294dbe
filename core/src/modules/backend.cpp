#include <vrambench/core/card/sampler.hpp>
#include <vrambench/core/modules/backend.hpp>
#include <vrambench/core/modules/module_text.hpp>

#include <fmt/format.h>

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

namespace vrb {

namespace {

std::atomic<int64_t> live_buffers{0};
std::atomic<bool> cancel_flag{false};

// The least level of the modules' messages shown: warnings, or what VRAMBENCH_LOG asks
// for (debug, info, warning). A GPU run's details (a Vulkan shader's registers, the path
// a chase takes) are debug messages, kept out of the way until someone asks.
int32_t shown_level()
{
    static const int32_t level = [] {
        const char *value = std::getenv("VRAMBENCH_LOG");
        if (!value || !*value || std::strcmp(value, "warning") == 0) return int32_t{VRB_LOG_WARNING};
        if (std::strcmp(value, "debug") == 0) return int32_t{VRB_LOG_DEBUG};
        if (std::strcmp(value, "info") == 0) return int32_t{VRB_LOG_INFO};
        std::fprintf(stderr, "warning: VRAMBENCH_LOG=%s is not debug, info or warning; showing warnings\n", value);
        return int32_t{VRB_LOG_WARNING};
    }();
    return level;
}

const char *level_name(int32_t level)
{
    return level >= VRB_LOG_ERROR     ? "error"
           : level >= VRB_LOG_WARNING ? "warning"
           : level >= VRB_LOG_INFO    ? "info"
                                      : "debug";
}

void host_log(void *, int32_t level, const char *message)
{
    if (level < shown_level()) return;
    std::fprintf(stderr, "%s: %s\n", level_name(level), message ? message : "");
}

int32_t host_is_cancelled(void *)
{
    return cancel_flag.load() ? 1 : 0;
}

const char *message_of(const Module &module)
{
    const auto last_error = module.slot(&vrb_plugin_table::last_error);
    const char *text = last_error ? last_error() : nullptr;
    return text && *text ? text : "no message";
}

int module_open_flags()
{
#if defined(VRAMBENCH_SANITIZED)
    // LeakSanitizer checks at exit, after every module is closed: an allocation made
    // by an unloaded library has no frame to name ("<unknown module>") and no
    // suppression can match it, and memory its globals still held now looks lost.
    // Kept mapped, every frame has a library and every global is still a root.
    return RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE;
#else
    return RTLD_NOW | RTLD_LOCAL;
#endif
}

// A name as it can be printed whatever bytes it holds.
std::string printable(std::string_view text)
{
    std::string out;
    for (const char c : text)
        out += c >= 0x20 && c < 0x7f ? std::string(1, c)
                                     : fmt::format("\\x{:02x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
    return out;
}

// plugin.h: lower case, [a-z0-9_-]. The name becomes part of device ids, file names
// and table columns, so nothing else (a slash, a space, "..") may reach them.
std::string checked_name(const std::filesystem::path &file, const char *name)
{
    const std::string_view text = name ? std::string_view(name, strnlen(name, max_module_name_bytes + 1)) : "";
    if (!text.empty() && text.size() <= max_module_name_bytes &&
        text.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") == std::string_view::npos)
        return std::string(text);
    throw LoadError(fmt::format("{}: backend name '{}{}' refused: a name is 1 to {} characters of a-z, 0-9, '_' "
                                "and '-' (plugin.h)",
                                file.string(), printable(text.substr(0, max_module_name_bytes)),
                                text.size() > max_module_name_bytes ? "..." : "", max_module_name_bytes));
}

} // namespace

std::string_view to_string(vrb_status status)
{
    switch (status) {
    case VRB_OK: return "ok";
    case VRB_ERROR_UNSUPPORTED: return "unsupported";
    case VRB_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case VRB_ERROR_OUT_OF_MEMORY: return "out of memory";
    case VRB_ERROR_DEVICE: return "device error";
    case VRB_ERROR_UNAVAILABLE: return "unavailable";
    case VRB_ERROR_TIMER: return "timer error";
    case VRB_ERROR_VERSION: return "version refused";
    case VRB_ERROR_CANCELLED: return "cancelled";
    case VRB_ERROR_INTERNAL: return "internal error";
    }
    return "unknown status";
}

const vrb_host_table *default_host_table()
{
    static const vrb_host_table table{sizeof(vrb_host_table), VRB_ABI_VERSION, nullptr, host_log, host_is_cancelled};
    return &table;
}

void request_cancel()
{
    cancel_flag.store(true);
}
bool cancel_requested()
{
    return cancel_flag.load();
}

// ---------------------------------------------------------------- Module

std::shared_ptr<Module> Module::load(const std::filesystem::path &file)
{
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) throw LoadError(fmt::format("{}: no such file", file.string()));
    if (std::filesystem::is_directory(file, ec))
        throw LoadError(fmt::format("{}: is a directory, not a plugin module", file.string()));

    std::shared_ptr<Module> module(new Module());
    module->file_ = file;
    // RTLD_LOCAL keeps one module's symbols from resolving another's.
    module->handle_ = dlopen(file.c_str(), module_open_flags());
    if (!module->handle_) {
        const char *why = dlerror();
        throw LoadError(fmt::format("{}: not a loadable library ({})", file.string(), why ? why : "dlopen failed"));
    }
    dlerror();
    auto entry = reinterpret_cast<vrb_plugin_entry_fn>(dlsym(module->handle_, VRB_ENTRY_SYMBOL));
    if (!entry)
        throw LoadError(
            fmt::format("{}: entry symbol '{}' missing: not a vrambench plugin", file.string(), VRB_ENTRY_SYMBOL));

    vrb_negotiation negotiation{};
    negotiation.struct_size = sizeof negotiation;
    negotiation.host_version = VRB_ABI_VERSION;
    const vrb_status status = entry(&negotiation);
    const std::string said = module_string(negotiation.message);
    const uint32_t v = negotiation.module_version;
    if (status == VRB_ERROR_VERSION || (status == VRB_OK && VRB_VERSION_MAJOR(v) != VRB_ABI_VERSION_MAJOR))
        throw LoadError(fmt::format("{}: ABI version refused: the module speaks {}.{}, this vrambench speaks {}.{}{}{}",
                                    file.string(), VRB_VERSION_MAJOR(v), VRB_VERSION_MINOR(v), VRB_ABI_VERSION_MAJOR,
                                    VRB_ABI_VERSION_MINOR, said.empty() ? "" : ": ", said));
    if (status != VRB_OK)
        throw LoadError(
            fmt::format("{}: entry failed ({}){}{}", file.string(), to_string(status), said.empty() ? "" : ": ", said));
    const vrb_plugin_table *table = negotiation.table;
    if (!table) throw LoadError(fmt::format("{}: entry returned no function table", file.string()));
    if (table->struct_size < offsetof(vrb_plugin_table, run) + sizeof table->run)
        throw LoadError(fmt::format("{}: function table too short ({} bytes) to hold the required calls", file.string(),
                                    table->struct_size));
    if (!table->name || !table->init || !table->shutdown || !table->last_error || !table->device_count ||
        !table->device_describe || !table->device_open || !table->device_close || !table->memory_kind_count ||
        !table->memory_kind_describe || !table->buffer_alloc || !table->buffer_free || !table->buffer_upload ||
        !table->buffer_download || !table->run)
        throw LoadError(fmt::format("{}: function table lacks a required call", file.string()));
    module->name_ = checked_name(file, table->name);
    module->table_ = table;
    module->version_ = v;
    return module;
}

Module::~Module()
{
    if (handle_) dlclose(handle_);
}

std::string Module::name() const
{
    return name_;
}

void Module::check(vrb_status status, std::string_view call) const
{
    if (status == VRB_OK) return;
    throw BackendError(status,
                       fmt::format("{} {} failed ({}): {}", name(), call, to_string(status), message_of(*this)));
}

void Module::check_handle(const void *handle, std::string_view call) const
{
    if (handle) return;
    throw BrokenModuleError(
        fmt::format("{} {} answered ok but handed back nothing: refused as a broken module", name(), call));
}

void Module::check_count(uint64_t count, uint64_t most, std::string_view what, std::string_view call) const
{
    if (count <= most) return;
    throw BrokenModuleError(
        fmt::format("{} {} answered {} {}, more than the {} vrambench accepts: refused as a broken module", name(),
                    call, count, what, most));
}

// ---------------------------------------------------------------- Backend

std::shared_ptr<Backend> Backend::create(std::shared_ptr<Module> module, const vrb_host_table *host)
{
    std::shared_ptr<Backend> backend(new Backend());
    backend->module_ = std::move(module);
    const vrb_status status = backend->module_->table().init(host, &backend->context_);
    if (status == VRB_ERROR_UNAVAILABLE) throw UnavailableError(message_of(*backend->module_));
    if (status != VRB_OK)
        throw LoadError(fmt::format("{}: init failed ({}): {}", backend->module_->file().string(), to_string(status),
                                    message_of(*backend->module_)));
    if (!backend->context_)
        throw LoadError(fmt::format("{}: init answered ok but handed back no context: refused as a broken module",
                                    backend->module_->file().string()));
    return backend;
}

Backend::~Backend()
{
    if (context_) module_->table().shutdown(context_);
}

uint32_t Backend::device_count() const
{
    uint32_t n = 0;
    module_->check(module_->table().device_count(context_, &n), "device_count");
    module_->check_count(n, max_devices, "devices", "device_count");
    return n;
}

vrb_device_info Backend::describe(uint32_t index) const
{
    vrb_device_info info{};
    info.struct_size = sizeof info;
    module_->check(module_->table().device_describe(context_, index, &info), "device_describe");
    info.struct_size = sizeof info;
    module_->check_count(info.cache_count, VRB_MAX_CACHES, "caches", "device_describe");
    module_->check_count(info.heap_count, VRB_MAX_HEAPS, "heaps", "device_describe");
    module_->check_count(info.property_count, VRB_MAX_PROPERTIES, "properties", "device_describe");
    return info;
}

std::unique_ptr<Device> Backend::open(uint32_t index) const
{
    vrb_device *handle = nullptr;
    module_->check(module_->table().device_open(context_, index, &handle), "device_open");
    module_->check_handle(handle, "device_open");
    return std::make_unique<Device>(shared_from_this(), handle, index);
}

// ---------------------------------------------------------------- Device

Device::Device(std::shared_ptr<const Backend> backend, vrb_device *handle, uint32_t index)
    : backend_(std::move(backend)), module_(backend_->module_ptr()), handle_(handle), index_(index),
      pool_(std::make_shared<BufferPool>(module_, handle_))
{
}

bool Device::is_gpu() const
{
    if (!gpu_) {
        const uint32_t type = describe().type;
        gpu_ = type == VRB_DEVICE_DISCRETE_GPU || type == VRB_DEVICE_INTEGRATED_GPU || type == VRB_DEVICE_VIRTUAL_GPU;
    }
    return *gpu_;
}

vrb_device_info Device::describe() const
{
    return backend_->describe(index_);
}

Device::~Device()
{
    pool_.reset();
    if (handle_) module_->table().device_close(handle_);
}

std::vector<vrb_memory_kind_info> Device::memory_kinds() const
{
    uint32_t n = 0;
    module_->check(module_->table().memory_kind_count(handle_, &n), "memory_kind_count");
    module_->check_count(n, max_memory_kinds, "memory kinds", "memory_kind_count");
    std::vector<vrb_memory_kind_info> kinds(n);
    for (uint32_t i = 0; i < n; ++i) {
        kinds[i].struct_size = sizeof(vrb_memory_kind_info);
        module_->check(module_->table().memory_kind_describe(handle_, i, &kinds[i]), "memory_kind_describe");
    }
    return kinds;
}

uint32_t Device::find_kind(uint32_t flags) const
{
    const auto kinds = memory_kinds();
    for (uint32_t i = 0; i < kinds.size(); ++i)
        if ((kinds[i].flags & flags) == flags) return i;
    throw RunError(fmt::format("{} device {} has no memory kind with flags {:#x}", module_->name(), index_, flags));
}

std::unique_ptr<Buffer> Device::acquire(uint32_t kind, uint64_t bytes)
{
    return pool_->acquire(kind, bytes);
}

std::unique_ptr<Buffer> Device::allocate(uint32_t kind, uint64_t bytes)
{
    pool_->release_idle();
    vrb_buffer *handle = nullptr;
    module_->check(module_->table().buffer_alloc(handle_, kind, bytes, &handle), "buffer_alloc");
    module_->check_handle(handle, "buffer_alloc");
    return std::make_unique<Buffer>(module_, handle, bytes, kind);
}

Device::RunOutput Device::run(const vrb_operation &op, uint32_t repetitions)
{
    RunOutput out;
    out.seconds.assign(repetitions, 0.0);
    out.output.struct_size = sizeof out.output;
    const TimedRuns timed; // the card's sampler counts what it reads now as during the runs
    module_->check(module_->table().run(handle_, &op, repetitions, out.seconds.data(), &out.output), "run");
    // A module of an older minor answers a shorter struct: a field past its struct_size
    // is none of its answer, whatever the bytes there hold, and reads as unknown (0).
    if (out.output.struct_size < offsetof(vrb_op_output, page_bytes) + sizeof out.output.page_bytes)
        out.output.page_bytes = 0;
    return out;
}

std::optional<bool> Device::supports(uint32_t op_kind, uint32_t element_bytes, uint32_t kind) const
{
    const auto slot = module_->slot(&vrb_plugin_table::op_supported);
    if (!slot) return std::nullopt;
    uint32_t answer = 0;
    module_->check(slot(handle_, op_kind, element_bytes, kind, &answer), "op_supported");
    if (answer > 1)
        throw BrokenModuleError(fmt::format("{} op_supported answered {}, neither 1 (supported) nor 0: refused as a "
                                            "broken module",
                                            module_->name(), answer));
    return answer == 1;
}

std::optional<uint32_t> Device::peer_flags(const Device &peer) const
{
    const auto slot = module_->slot(&vrb_plugin_table::peer_query);
    if (!slot) return std::nullopt;
    if (peer.module_ != module_)
        throw RunError(fmt::format("{} and {} are devices of different modules: no peer path is asked of either",
                                   module_->name(), peer.module_->name()));
    uint32_t answer = 0;
    module_->check(slot(handle_, peer.handle_, &answer), "peer_query");
    constexpr uint32_t known = VRB_PEER_COPY | VRB_PEER_ACCESS | VRB_PEER_THROUGH_HOST;
    if (answer & ~known)
        throw BrokenModuleError(fmt::format("{} peer_query answered {:#x}, bits outside VRB_PEER_*: "
                                            "refused as a broken module",
                                            module_->name(), answer));
    return answer;
}

// ---------------------------------------------------------------- Buffer

Buffer::Buffer(std::shared_ptr<Module> module, vrb_buffer *handle, uint64_t bytes, uint32_t kind)
    : module_(std::move(module)), handle_(handle), bytes_(bytes), kind_(kind)
{
    ++live_buffers;
}

Buffer::~Buffer()
{
    if (auto pool = pool_.lock())
        pool->give_back(handle_, capacity_, kind_);
    else
        module_->table().buffer_free(handle_);
    --live_buffers;
}

int64_t Buffer::live_count()
{
    return live_buffers.load();
}

void Buffer::upload(uint64_t offset, std::span<const std::byte> data)
{
    module_->check(module_->table().buffer_upload(handle_, offset, data.data(), data.size()), "buffer_upload");
}

void Buffer::download(uint64_t offset, std::span<std::byte> data) const
{
    module_->check(module_->table().buffer_download(handle_, offset, data.data(), data.size()), "buffer_download");
}

} // namespace vrb
