#include "compute_ops.hpp"

#include "abi_handles.hpp"
#include "buffer.hpp"
#include "device.hpp"
#include "filling_grid.hpp"
#include "splitting.hpp"

#include <vrambench/pattern.h>
#include <vrambench/plugin_support.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <span>
#include <string_view>
#include <thread>

namespace vrb::vulkan {

namespace {

// Pieces stay well inside a shader's 32-bit element indices.
constexpr uint64_t kMaxPieceElements = uint64_t(1) << 30;
constexpr uint64_t kSlotBytes = 16; // one uvec4 per workgroup

const Buffer &buffer_of(const vrb_operand &operand)
{
    return *from_abi(operand.buffer);
}

uint32_t narrow(uint64_t value, const char *what)
{
    if (value > UINT32_MAX) fail(VRB_ERROR_INTERNAL, std::string(what) + " does not fit 32 bits");
    return static_cast<uint32_t>(value);
}

VkFormat texel_format(uint32_t element_bytes)
{
    return element_bytes == 4   ? VK_FORMAT_R32_UINT
           : element_bytes == 8 ? VK_FORMAT_R32G32_UINT
                                : VK_FORMAT_R32G32B32A32_UINT;
}

// The elements one invocation walks in a dispatch of `slice`.
uint64_t per_invocation(const Slice &slice, uint32_t local_size)
{
    const uint64_t invocations = uint64_t(std::max(slice.groups, 1u)) * std::max(local_size, 1u);
    return (slice.count + invocations - 1) / invocations;
}

void compute_barrier(VkCommandBuffer commands)
{
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                         &barrier, 0, nullptr, 0, nullptr);
}

DeviceUnits units_of(const Device &device)
{
    const PhysicalDevice &d = device.physical();
    DeviceUnits units;
    units.cpu = d.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    units.cpu_threads = std::thread::hardware_concurrency();
    const uint32_t subgroup = d.has_subgroup && d.subgroup.subgroupSize ? d.subgroup.subgroupSize : 32;
    units.subgroup_size = subgroup;
    if (d.has_sm) {
        units.compute_units = d.sm.shaderSMCount;
        units.resident_threads = d.sm.shaderWarpsPerSM * subgroup;
        units.nvidia_sms = true;
    } else if (d.has_amd_cores) {
        const VkPhysicalDeviceShaderCorePropertiesAMD &c = d.amd_cores;
        units.compute_units = c.shaderEngineCount * c.shaderArraysPerEngineCount * c.computeUnitsPerShaderArray;
        units.resident_threads = c.simdPerComputeUnit * c.wavefrontsPerSimd * c.wavefrontSize;
        units.simds_per_unit = c.simdPerComputeUnit;
    }
    // Units the user gives: a GPU's geometry whatever the device, each unit keeping what
    // the vendor says it keeps (the shader's registers still bound it), else 2048.
    if (const uint32_t given = device.options().units) {
        units.cpu = false;
        units.compute_units = given;
        if (!units.resident_threads) units.resident_threads = kResidentInvocationsGiven;
    }
    return units;
}

// The device's dispatch shape with at most the workgroups of `shader` that fill it
// once: each invocation then walks a longer slice, `passes` times, instead of a small
// working set being spread over more workgroups than run at once.
DispatchShape filling_shape(Device &device, std::string_view shader, LayoutKind kind)
{
    DispatchShape shape = device.shape().dispatch;
    const DeviceUnits units = units_of(device);
    const ShaderResources needs = device.pipelines().resources(shader, kind, shape.local_size);
    const uint32_t fill = filling_groups(units, shape.local_size, needs);
    if (fill) shape.max_groups = std::min(shape.max_groups, fill);
    return shape;
}

} // namespace

ComputeOperation::ComputeOperation(Device &device, const vrb_operation &op) : device_(device), kind_(op.kind)
{
    if (kind_ == VRB_OP_GATHER || kind_ == VRB_OP_CHASE)
        plan_gather_or_chase(op);
    else
        plan_stream(op);
    Pipelines &pipelines = device.pipelines();
    layout_ = pipelines.layout(layout_kind_);
    HostBuffer &results = device.results(std::max<uint64_t>(slots_, 1) * kSlotBytes);
    results_ = &results;
    write_descriptors(results);
    if (kind_ == VRB_OP_CHASE && !dispatches_.empty()) {
        if (device.shape().chase_by_address) link_chase(op);
        if (!links_) device.context().log(VRB_LOG_DEBUG, "CHASE walks the chain's indices");
    }
    pipeline_ = pipelines.get(shader_, layout_kind_, local_size_);
}

void ComputeOperation::link_chase(const vrb_operation &op)
{
    Buffer &chain = *from_abi(op.src1.buffer);
    Links links;
    if (const KeptLinks *kept = chain.kept_links(op.src1.offset, device_)) {
        links_ = kept->buffer;
        links.layout = kept->layout;
    } else {
        chain.keep_links({}); // the old links go before new ones take their memory
        LinkSource source;
        source.kind = &chain.kind();
        source.set = sets_[0];
        source.common = dispatches_.front().push;
        source.shader = links_shader_;
        links = make_links(device_, source, *results_);
        if (!links.buffer) return;
        links_ = std::move(links.buffer);
        links_made_now_ = true;
        chain.keep_links({0, op.src1.offset, &device_, links_, links.layout});
        device_.context().log(VRB_LOG_DEBUG, "CHASE made the links of its chain");
    }
    shader_ = address_shader_;
    for (Dispatch &d : dispatches_) {
        set64(d.push.link_base, links_->address());
        set64(d.push.link_trap, links_->address() + links.layout.slots * 8);
        d.push.link_shift = links.layout.shift;
    }
    dispatches_.back().push.flags |= kFlagChaseLast;
    device_.context().log(VRB_LOG_DEBUG, links.layout.shift == 2
                                             ? "CHASE walks device addresses, links at the indices' own bytes"
                                             : "CHASE walks device addresses, links of 8 bytes an index");
}

void ComputeOperation::plan_stream(const vrb_operation &op)
{
    const uint32_t e = op.element_bytes;
    const std::string width = "_w" + std::to_string(e / 4);
    struct Use {
        const vrb_operand *operand;
        uint32_t binding;
    };
    std::vector<Use> uses;
    uint64_t step = e; // bytes between the src1 elements of consecutive indices
    uint32_t pattern = op.pattern;
    switch (kind_) {
    case VRB_OP_COPY: shader_ = "stream_copy"; break;
    case VRB_OP_SCALE: shader_ = "stream_scale"; break;
    case VRB_OP_ADD: shader_ = "stream_add"; break;
    case VRB_OP_TRIAD: shader_ = "stream_triad"; break;
    case VRB_OP_WRITE:
    case VRB_OP_FILL: shader_ = "fill"; break;
    case VRB_OP_READ: shader_ = "reduce_read"; break;
    case VRB_OP_DOT: shader_ = "reduce_dot"; break;
    case VRB_OP_STRIDED_READ: shader_ = "reduce_strided"; break;
    case VRB_OP_CHECK: shader_ = "check"; break;
    default: fail(VRB_ERROR_UNSUPPORTED, "operation " + std::to_string(kind_) + " is not a compute operation");
    }
    shader_ += width;
    switch (kind_) {
    case VRB_OP_ADD:
    case VRB_OP_TRIAD: uses = {{&op.dst, binding::dst}, {&op.src1, binding::src1}, {&op.src2, binding::src2}}; break;
    case VRB_OP_COPY:
    case VRB_OP_SCALE: uses = {{&op.dst, binding::dst}, {&op.src1, binding::src1}}; break;
    case VRB_OP_WRITE:
        pattern = VRB_PATTERN_RANDOM;
        uses = {{&op.dst, binding::dst}};
        break;
    case VRB_OP_FILL: uses = {{&op.dst, binding::dst}}; break;
    case VRB_OP_DOT:
        answer_ = Answer::Sum;
        uses = {{&op.src1, binding::src1}, {&op.src2, binding::src2}};
        break;
    case VRB_OP_STRIDED_READ:
        // With one element the stride is never taken (and may be any size).
        if (op.count > 1) step = op.stride * e;
        [[fallthrough]];
    case VRB_OP_READ:
        answer_ = Answer::Sum;
        uses = {{&op.src1, binding::src1}};
        break;
    case VRB_OP_CHECK:
        answer_ = Answer::Check;
        uses = {{&op.src1, binding::src1}};
        break;
    default: break;
    }

    const DeviceShape &shape = device_.shape();
    local_size_ = shape.dispatch.local_size;
    const bool texel = shape.cpu_tuned;
    if (shape.cpu_tuned) {
        shader_ += "_cpu";
        layout_kind_ = LayoutKind::StreamTexel;
    }
    auto texel_binding = [&](uint32_t b) { return texel && (b == binding::src1 || b == binding::src2); };
    std::vector<Access> accesses;
    for (const Use &use : uses)
        accesses.push_back({use.operand->offset, use.binding == binding::src1 ? step : e});
    // A texel view holds at most max_texel_elements, counted from its aligned start.
    const uint64_t max_span =
        texel ? shape.max_texel_elements * e - shape.texel_offset_alignment : std::numeric_limits<uint64_t>::max();
    const std::vector<Piece> pieces =
        split_pieces(op.count, e, shape.segment_bytes, accesses, kMaxPieceElements, max_span);

    const uint64_t element_stride = step / e; // in elements, between consecutive src1 reads
    // A sweep's stream operation on a set below one wave: every workgroup walks it whole.
    const DispatchShape filling = filling_shape(device_, shader_, layout_kind_);
    // A READ asked as one read (VRB_OPERATION_ONE_READ), and a TRANSFER copied here
    // (VRB_OPERATION_ENGINE_SM, run.cpp), move the set once a pass at every size.
    const uint32_t asked = vrb::plugin::operation_flags(op);
    const bool once = (kind_ == VRB_OP_READ && (asked & VRB_OPERATION_ONE_READ)) || (asked & VRB_OPERATION_ENGINE_SM);
    const bool sweep_op = kind_ != VRB_OP_FILL && kind_ != VRB_OP_CHECK && kind_ != VRB_OP_STRIDED_READ && !once;
    const DeviceUnits units = units_of(device_);
    const bool units_known = filling_groups(units, shape.dispatch.local_size) != 0;
    const SweepWalk walk = sweep_op && units_known && pieces.size() == 1
                               ? plan_sweep_walk(pieces[0].count, units, filling.max_groups, shape.dispatch.local_size,
                                                 shape.dispatch.widest_local_size)
                               : SweepWalk{};
    const uint32_t whole = walk.groups;
    if (whole) {
        copies_ = whole;
        local_size_ = walk.local_size;
    }
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        const Piece &piece = pieces[k];
        SetPlan plan;
        plan.windows.assign(4, VkDescriptorBufferInfo{});
        plan.views.assign(4, VK_NULL_HANDLE);
        std::array<uint64_t, 4> base{};
        for (std::size_t a = 0; a < uses.size(); ++a) {
            const uint32_t b = uses[a].binding;
            const Segment &segment = buffer_of(*uses[a].operand).segments()[piece.access[a].segment];
            const Window window =
                bind_window(piece.access[a].offset, e,
                            texel_binding(b) ? shape.texel_offset_alignment : shape.storage_offset_alignment);
            plan.windows[b] = {segment.buffer.get(), window.offset, segment.buffer_bytes - window.offset};
            base[b] = window.base;
            if (texel_binding(b)) {
                const uint64_t span = (piece.count - 1) * (b == binding::src1 ? element_stride : 1) + 1;
                VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
                info.buffer = segment.buffer.get();
                info.format = texel_format(e);
                info.offset = window.offset;
                info.range = (window.base + span) * e;
                VkBufferView view = VK_NULL_HANDLE;
                check(vkCreateBufferView(device_.handle(), &info, nullptr, &view), "creating a texel view");
                views_.emplace_back(device_.handle(), view);
                plan.views[b] = view;
            }
        }
        set_plans_.push_back(std::move(plan));

        std::vector<Slice> slices = slice_dispatch(piece.count, filling);
        if (whole) slices = {Slice{0, piece.count, whole}};
        for (const Slice &slice : slices) {
            Dispatch d;
            d.set = static_cast<uint32_t>(k);
            d.groups = slice.groups;
            d.iterations = whole ? per_invocation(Slice{0, slice.count, 1}, local_size_)
                                 : per_invocation(slice, shape.dispatch.local_size);
            PushConstants &p = d.push;
            p.count = narrow(slice.count, "a dispatch's element count");
            p.dst_base = narrow(base[binding::dst] + slice.first, "a dst index");
            p.src1_base = narrow(base[binding::src1] + slice.first * element_stride, "a src1 index");
            p.src2_base = narrow(base[binding::src2] + slice.first, "a src2 index");
            set64(p.first_lane, (piece.first + slice.first) * (e / 4));
            p.scalar = op.scalar;
            p.seed = op.seed;
            p.pattern = pattern;
            p.stride = piece.count > 1 ? narrow(element_stride, "a stride inside one segment") : 0;
            if (whole) p.flags = kFlagWholeSet;
            if (answer_ != Answer::None) {
                p.slot = slots_;
                slots_ += slice.groups;
            }
            dispatches_.push_back(d);
        }
    }
}

void ComputeOperation::plan_gather_or_chase(const vrb_operation &op)
{
    const bool gather = kind_ == VRB_OP_GATHER;
    const uint32_t e = gather ? op.element_bytes : 4;
    const DeviceShape &shape = device_.shape();
    layout_kind_ = LayoutKind::Chain;
    answer_ = gather ? Answer::Gather : Answer::Chase;

    // make_table's check_operation() checks src1's offset only when there are steps to
    // take; the segments are bound from the offset even for none, so it must lie inside.
    const Buffer &chain = buffer_of(op.src1);
    const char *name = gather ? "GATHER" : "CHASE";
    if (op.src1.offset % e != 0)
        fail(VRB_ERROR_INVALID_ARGUMENT, std::string(name) + ": src1 offset " + std::to_string(op.src1.offset) +
                                             " is not a multiple of " + std::to_string(e));
    if (op.src1.offset + e > chain.size())
        fail(VRB_ERROR_INVALID_ARGUMENT, std::string(name) + ": src1 offset " + std::to_string(op.src1.offset) +
                                             " leaves no element in its buffer of " + std::to_string(chain.size()) +
                                             " bytes");

    // The chain's array binds the segments from the one holding src1.offset on, as far
    // as a 32-bit index can reach.
    const uint64_t S = chain.segment_bytes();
    const uint64_t first_segment = op.src1.offset / S;
    const uint64_t region_start = first_segment * S;
    const uint64_t reach_end = std::min(chain.size(), op.src1.offset + (uint64_t(1) << 32) * e);
    const uint64_t reached = reach_end > region_start ? segment_count(reach_end - region_start, S) : 1;
    if (reached > kChainSegmentSlots)
        fail(VRB_ERROR_UNSUPPORTED, std::string(name) + " can reach " + std::to_string(reached) + " segments of " +
                                        std::to_string(S) +
                                        " bytes of its source; the Vulkan backend "
                                        "binds at most " +
                                        std::to_string(kChainSegmentSlots));
    for (uint32_t slot = 0; slot < kChainSegmentSlots; ++slot) {
        const Segment &segment = chain.segments()[first_segment + std::min<uint64_t>(slot, reached - 1)];
        chain_.push_back({segment.buffer.get(), 0, segment.buffer_bytes});
    }
    PushConstants common;
    set64(common.chain_base, (op.src1.offset - region_start) / e);
    set64(common.chain_limit, (chain.size() - region_start) / e);
    common.segment_shift = static_cast<uint32_t>(std::countr_zero(S / e));

    if (reached == 1)
        shader_ = gather ? "gather_single" : "chase_single";
    else if (gather)
        shader_ = shape.chain_nonuniform ? "gather_nonuniform" : "gather_switch";
    else if (shape.chain_uniform)
        shader_ = "chase_uniform";
    else
        fail(VRB_ERROR_UNSUPPORTED, "CHASE over several buffer segments needs shaderStorageBufferArrayDynamicIndexing");
    if (!gather) {
        // The walk by address reads the chain in one invocation, as the index walk does;
        // the passes that make its links read it in many.
        address_shader_ = reached == 1 ? "chase_addresses_single" : "chase_addresses_uniform";
        links_shader_ = reached == 1             ? "chase_links_single"
                        : shape.chain_nonuniform ? "chase_links_nonuniform"
                                                 : "chase_links_switch";
    }

    if (!gather) {
        local_size_ = 1;
        slots_ = 1;
        set_plans_.push_back({{}, {}, true});
        for (uint64_t done = 0; done < op.count;) {
            const uint64_t n = std::min<uint64_t>(op.count - done, shape.chase_steps_per_dispatch);
            Dispatch d;
            d.push = common;
            d.push.count = static_cast<uint32_t>(n);
            d.push.flags = done == 0 ? kFlagChaseFirst : 0u;
            d.barrier_before = done != 0;
            dispatches_.push_back(d);
            done += n;
        }
        return;
    }

    shader_ += "_w" + std::to_string(e / 4);
    local_size_ = shape.dispatch.local_size;
    const Buffer &index = buffer_of(op.src2);
    const Access access{op.src2.offset, 4};
    const std::vector<Piece> pieces =
        split_pieces(op.count, 4, index.segment_bytes(), std::span(&access, 1), kMaxPieceElements);
    const DispatchShape filling = filling_shape(device_, shader_, layout_kind_);
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        const Piece &piece = pieces[k];
        const Segment &segment = index.segments()[piece.access[0].segment];
        const Window window = bind_window(piece.access[0].offset, 4, shape.storage_offset_alignment);
        SetPlan plan;
        plan.chain = true;
        plan.windows.assign(1, {segment.buffer.get(), window.offset, segment.buffer_bytes - window.offset});
        set_plans_.push_back(std::move(plan));
        for (const Slice &slice : slice_dispatch(piece.count, filling)) {
            Dispatch d;
            d.set = static_cast<uint32_t>(k);
            d.groups = slice.groups;
            d.iterations = per_invocation(slice, shape.dispatch.local_size);
            d.push = common;
            d.push.count = narrow(slice.count, "a dispatch's element count");
            d.push.src2_base = narrow(window.base + slice.first, "an index position");
            d.push.slot = slots_;
            slots_ += slice.groups;
            dispatches_.push_back(d);
        }
    }
}

void ComputeOperation::write_descriptors(HostBuffer &results)
{
    if (set_plans_.empty()) return;
    const VkDevice vk = device_.handle();
    const auto count = static_cast<uint32_t>(set_plans_.size());
    const uint32_t per_set = layout_kind_ == LayoutKind::Chain ? 2 + kChainSegmentSlots : 4;
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, count * per_set},
                                          {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, count * 2}};
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool_info.maxSets = count;
    pool_info.poolSizeCount = 2;
    pool_info.pPoolSizes = sizes;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    check(vkCreateDescriptorPool(vk, &pool_info, nullptr, &pool), "creating a descriptor pool");
    pool_ = Owned<VkDescriptorPool>(vk, pool);

    const std::vector<VkDescriptorSetLayout> layouts(count, device_.pipelines().set_layout(layout_kind_));
    VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    allocate.descriptorPool = pool;
    allocate.descriptorSetCount = count;
    allocate.pSetLayouts = layouts.data();
    sets_.resize(count);
    check(vkAllocateDescriptorSets(vk, &allocate, sets_.data()), "allocating descriptor sets");

    const uint64_t max_range = device_.physical().properties.limits.maxStorageBufferRange;
    const VkDescriptorBufferInfo results_info{results.buffer(), 0, std::min(results.size(), max_range)};
    std::vector<VkWriteDescriptorSet> writes;
    auto write = [&](VkDescriptorSet set, uint32_t number, const VkDescriptorBufferInfo *info, uint32_t n) {
        VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = set;
        w.dstBinding = number;
        w.descriptorCount = n;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = info;
        writes.push_back(w);
    };
    auto write_view = [&](VkDescriptorSet set, uint32_t number, const VkBufferView *view) {
        VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = set;
        w.dstBinding = number;
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        w.pTexelBufferView = view;
        writes.push_back(w);
    };
    for (uint32_t k = 0; k < count; ++k) {
        const SetPlan &plan = set_plans_[k];
        if (plan.chain) {
            if (!plan.windows.empty()) write(sets_[k], binding::index, &plan.windows[0], 1);
            write(sets_[k], binding::chain_results, &results_info, 1);
            write(sets_[k], binding::chain, chain_.data(), kChainSegmentSlots);
        } else {
            for (uint32_t b = 0; b < plan.windows.size(); ++b) {
                if (plan.views[b] != VK_NULL_HANDLE)
                    write_view(sets_[k], b, &plan.views[b]);
                else if (plan.windows[b].buffer != VK_NULL_HANDLE)
                    write(sets_[k], b, &plan.windows[b], 1);
            }
            if (answer_ != Answer::None) write(sets_[k], binding::results, &results_info, 1);
        }
    }
    vkUpdateDescriptorSets(vk, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
}

void ComputeOperation::record(VkCommandBuffer commands, uint32_t passes) const
{
    if (dispatches_.empty()) return;
    passes = std::max(passes, 1u);
    // The shaders loop over the passes themselves; a dispatch takes as many as keep its
    // invocations' loops within the device's bound (llvmpipe cuts longer ones short).
    // CHASE walks one chain per dispatch.
    uint32_t per_dispatch = 1;
    if (kind_ != VRB_OP_CHASE) {
        uint64_t longest = 1;
        for (const Dispatch &d : dispatches_)
            longest = std::max(longest, d.iterations + 1);
        per_dispatch = static_cast<uint32_t>(
            std::clamp<uint64_t>(device_.shape().dispatch.max_iterations / longest, 1, UINT32_MAX));
    }
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    uint32_t bound = UINT32_MAX;
    for (uint32_t done = 0; done < passes;) {
        const uint32_t n = std::min(passes - done, per_dispatch);
        if (done > 0) compute_barrier(commands);
        for (const Dispatch &d : dispatches_) {
            if (d.barrier_before) compute_barrier(commands);
            if (d.set != bound) {
                vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &sets_[d.set], 0,
                                        nullptr);
                bound = d.set;
            }
            PushConstants push = d.push;
            push.passes = n;
            vkCmdPushConstants(commands, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
            vkCmdDispatch(commands, d.groups, 1, 1);
        }
        done += n;
    }
}

OperationAnswer ComputeOperation::finish() const
{
    OperationAnswer answer;
    if (answer_ == Answer::None || dispatches_.empty()) return answer;
    results_->invalidate();
    const auto *words = reinterpret_cast<const uint32_t *>(results_->data());
    auto u64 = [&](uint32_t slot, int word) {
        return words[slot * 4 + word] | uint64_t(words[slot * 4 + word + 1]) << 32;
    };
    switch (answer_) {
    case Answer::Sum:
        // Where every workgroup walked the whole set, each slot holds the whole answer.
        for (uint32_t s = 0; s < (copies_ > 1 ? 1u : slots_); ++s)
            answer.checksum += u64(s, 0);
        break;
    case Answer::Check: {
        uint64_t first = UINT64_MAX;
        for (uint32_t s = 0; s < slots_; ++s) {
            answer.mismatches += u64(s, 0);
            first = std::min(first, u64(s, 2));
        }
        answer.first_mismatch = answer.mismatches ? first : 0;
        break;
    }
    case Answer::Gather: {
        uint64_t faults = 0;
        for (uint32_t s = 0; s < slots_; ++s) {
            answer.checksum += u64(s, 0);
            faults += u64(s, 2);
        }
        if (faults)
            fail(VRB_ERROR_INVALID_ARGUMENT,
                 "GATHER: " + std::to_string(faults) + " indices point past the end of src1's buffer");
        break;
    }
    case Answer::Chase:
        if (words[1])
            fail(VRB_ERROR_INVALID_ARGUMENT,
                 "CHASE: the chain leads past the end of src1's buffer (to index " + std::to_string(words[0]) + ")");
        answer.checksum = words[0];
        break;
    case Answer::None: break;
    }
    return answer;
}

} // namespace vrb::vulkan
