#include <vrambench/core/measurement/buffer_pool.hpp>
#include <vrambench/core/modules/backend.hpp>

#include <algorithm>

namespace vrb {

namespace {

constexpr uint64_t kSmallRequest = 64ull << 20;
constexpr uint64_t kLargestWaste = 4;

} // namespace

BufferPool::BufferPool(std::shared_ptr<Module> module, vrb_device *device) : module_(std::move(module)), device_(device)
{
}

BufferPool::~BufferPool()
{
    release_idle();
}

void BufferPool::free_handle(vrb_buffer *handle) const
{
    module_->table().buffer_free(handle);
}

void BufferPool::release_idle()
{
    for (const Idle &idle : idle_)
        free_handle(idle.handle);
    idle_.clear();
}

void BufferPool::make_room(uint64_t bytes)
{
    if (limit_ && leased_ + idle_bytes() + bytes > limit_) release_idle();
}

uint64_t BufferPool::idle_bytes() const
{
    uint64_t total = 0;
    for (const Idle &idle : idle_)
        total += idle.bytes;
    return total;
}

vrb_buffer *BufferPool::allocate(uint32_t kind, uint64_t bytes)
{
    vrb_buffer *handle = nullptr;
    vrb_status status = module_->table().buffer_alloc(device_, kind, bytes, &handle);
    if (status == VRB_ERROR_OUT_OF_MEMORY && !idle_.empty()) {
        release_idle();
        status = module_->table().buffer_alloc(device_, kind, bytes, &handle);
    }
    module_->check(status, "buffer_alloc");
    module_->check_handle(handle, "buffer_alloc");
    ++created_;
    return handle;
}

std::unique_ptr<Buffer> BufferPool::acquire(uint32_t kind, uint64_t bytes)
{
    auto best = idle_.end();
    for (auto it = idle_.begin(); it != idle_.end(); ++it) {
        if (it->kind != kind || it->bytes < bytes) continue;
        if (best == idle_.end() || it->bytes < best->bytes) best = it;
    }
    if (best != idle_.end() && (bytes >= kSmallRequest || best->bytes <= kLargestWaste * bytes)) {
        const Idle found = *best;
        idle_.erase(best);
        ++reused_;
        leased_ += found.bytes;
        auto buffer = std::make_unique<Buffer>(module_, found.handle, bytes, kind);
        buffer->return_to(weak_from_this(), found.bytes);
        return buffer;
    }
    // Smaller idle buffers of this kind would only be outgrown again: make room first.
    std::erase_if(idle_, [&](const Idle &idle) {
        const bool outgrown = idle.kind == kind && idle.bytes < bytes;
        if (outgrown) free_handle(idle.handle);
        return outgrown;
    });
    // Within the limit: what no one leases goes before the memory grows past it.
    make_room(bytes);
    vrb_buffer *handle = allocate(kind, bytes);
    leased_ += bytes;
    auto buffer = std::make_unique<Buffer>(module_, handle, bytes, kind);
    buffer->return_to(weak_from_this(), bytes);
    return buffer;
}

void BufferPool::give_back(vrb_buffer *handle, uint64_t bytes, uint32_t kind)
{
    leased_ -= std::min(leased_, bytes);
    idle_.push_back({handle, bytes, kind});
}

} // namespace vrb
