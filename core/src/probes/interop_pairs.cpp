#include "interop_pairs.hpp"

#include "curve.hpp"

#include <vrambench/core/measurement/measure.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cstring>
#include <numeric>
#include <unistd.h>

namespace vrb::interop {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Device memory the exporter's kernels use, device-local where it has any.
uint32_t exporter_kind(const Device &device)
{
    const auto kinds = device.memory_kinds();
    const uint32_t access = VRB_MEMORY_DEVICE_ACCESS, local = VRB_MEMORY_DEVICE_LOCAL;
    for (const uint32_t want : {access | local, access})
        for (uint32_t i = 0; i < kinds.size(); ++i)
            if ((kinds[i].flags & want) == want) return i;
    throw RunError("the exporter has no memory its kernels can use");
}

// A pair from one opened exporter device, or the reason there is none.
std::optional<std::string> complete(Pair &pair, const std::string &importer_backend, Sharing sharing)
{
    const Module &module = pair.exporter->module();
    if (sharing == Sharing::semaphores) {
        if (auto why = semaphore_export_gap(module)) return fmt::format("{}: {}", pair.exporter_id, *why);
        pair.handle = "opaque-fd";
        pair.name = fmt::format("{}->{}", module.name(), importer_backend);
        return std::nullopt;
    }
    if (!offers_export(module))
        return fmt::format("{} exports no memory (no buffer_export in its ABI table)", pair.exporter_id);
    pair.exportable_alloc = offers_exportable_alloc(module);
    pair.kind = exporter_kind(*pair.exporter);
    const vrb_device_info info = pair.exporter->describe();
    pair.handle = info.type == VRB_DEVICE_CPU && std::string_view(info.api) == "host" ? "host-pointer" : "opaque-fd";
    pair.name = fmt::format("{}->{}", module.name(), importer_backend);
    return std::nullopt;
}

} // namespace

std::optional<std::string> same_card_key(const vrb_device_info &a, const vrb_device_info &b)
{
    if ((a.known & b.known & VRB_KNOWN_UUID) && std::memcmp(a.uuid, b.uuid, sizeof a.uuid) == 0)
        return std::string("uuid");
    if ((a.known & b.known & VRB_KNOWN_PCI_ADDRESS) && strncmp(a.pci_address, b.pci_address, sizeof a.pci_address) == 0)
        return std::string("pci-address");
    return std::nullopt;
}

std::vector<Pair> find_pairs(const ProbeContext &ctx, std::vector<std::string> &skipped, Sharing sharing)
{
    std::vector<Pair> pairs;
    const std::string importer = ctx.record.backend;
    if (sharing == Sharing::semaphores) {
        if (auto why = semaphore_import_gap(ctx.device.module())) {
            skipped.push_back(fmt::format("{} imports no semaphore: {}", ctx.record.id, *why));
            return pairs;
        }
    } else if (!offers_import(ctx.device.module())) {
        skipped.push_back(fmt::format("{} imports no memory (no buffer_import in its ABI table)", importer));
        return pairs;
    }
    // The same card through the same API, as a second device (two VkDevices).
    try {
        Pair pair;
        pair.exporter = ctx.device.backend().open(ctx.device.index());
        pair.exporter_id = ctx.record.id;
        pair.card_key = "same device";
        if (auto why = complete(pair, importer, sharing))
            skipped.push_back(*why);
        else
            pairs.push_back(std::move(pair));
    } catch (const Error &e) {
        skipped.push_back(fmt::format("a second device of {} did not open: {}", ctx.record.id, e.what()));
    }
    // The run's other backends, loaded into this process beside the device's own.
    for (const std::string &file : ctx.options.partner_modules) {
        std::shared_ptr<const Backend> backend;
        try {
            backend = Backend::create(Module::load(file), default_host_table());
        } catch (const Error &e) {
            skipped.push_back(fmt::format("{}: {}", file, e.what()));
            continue;
        }
        const vrb_device_info mine = ctx.device.describe();
        for (uint32_t i = 0; i < backend->device_count(); ++i) {
            const std::string id = fmt::format("{}:{}", backend->name(), i);
            try {
                const vrb_device_info theirs = backend->describe(i);
                const bool host = theirs.type == VRB_DEVICE_CPU && std::string_view(theirs.api) == "host";
                // Host memory is shared by address with any device; device memory only
                // within one card.
                const std::optional<std::string> key = same_card_key(mine, theirs);
                if (!host && !key) {
                    skipped.push_back(fmt::format("{} is another card than {}", id, ctx.record.id));
                    continue;
                }
                Pair pair;
                pair.card_key = host ? "host memory" : *key;
                pair.backend = backend;
                pair.exporter = backend->open(i);
                pair.exporter_id = id;
                if (auto why = complete(pair, importer, sharing))
                    skipped.push_back(*why);
                else
                    pairs.push_back(std::move(pair));
            } catch (const Error &e) {
                skipped.push_back(fmt::format("{}: {}", id, e.what()));
            }
        }
    }
    return pairs;
}

uint64_t shareable_bytes(uint64_t bytes)
{
    const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    return std::max<uint64_t>(page, (bytes + page - 1) / page * page);
}

uint64_t max_shared_bytes(const vrb_device_info &info)
{
    for (uint32_t i = 0; i < std::min<uint32_t>(info.property_count, VRB_MAX_PROPERTIES); ++i)
        if (module_text(info.properties[i].key) == max_shared_bytes_property) {
            const std::string_view value = module_text(info.properties[i].value);
            uint64_t bytes = 0;
            const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), bytes);
            return error == std::errc() && end == value.data() + value.size() ? bytes : 0;
        }
    return 0;
}

uint64_t cap_to_shareable(uint64_t bytes, uint64_t granule, const DeviceRecord &importer,
                          const std::vector<Pair> &pairs, std::string &rule)
{
    uint64_t cap = max_shared_bytes(importer.info);
    std::string whose = importer.id;
    for (const Pair &pair : pairs)
        if (const uint64_t theirs = max_shared_bytes(pair.exporter->describe()); theirs && (!cap || theirs < cap)) {
            cap = theirs;
            whose = pair.exporter_id;
        }
    const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    const uint64_t step = std::lcm(page, std::max<uint64_t>(granule, 1));
    if (!cap || bytes <= cap || cap < step) return bytes;
    rule +=
        fmt::format("; capped to {}, the largest {} shares in one allocation", format_size(cap / step * step), whose);
    return cap / step * step;
}

Shared share(Pair &pair, Device &importer, uint64_t bytes)
{
    Shared shared;
    shared.exported = pair.exportable_alloc
                          ? allocate_exportable(*pair.exporter, pair.kind, bytes, VRB_EXTERNAL_OPAQUE_FD)
                          : pair.exporter->allocate(pair.kind, bytes);
    auto start = Clock::now();
    ExternalHandle handle = export_buffer(*shared.exported);
    shared.export_seconds = since(start);
    start = Clock::now();
    shared.imported = import_buffer(importer, handle);
    shared.import_seconds = since(start);
    return shared;
}

ProbeResult make_pair_result(const ProbeContext &ctx, std::string_view probe, const Pair &pair)
{
    ProbeResult r = make_result(ctx, probe);
    r.parameters["pair"] = pair.name;
    r.parameters["exporter"] = pair.exporter_id;
    r.parameters["importer"] = ctx.record.id;
    r.parameters["handle"] = pair.handle;
    r.parameters["card_matched_by"] = pair.card_key;
    return r;
}

void mark_error(ProbeResult &r, const Error &e)
{
    const auto *backend = dynamic_cast<const BackendError *>(&e);
    if (backend && backend->status() == VRB_ERROR_UNSUPPORTED) {
        r.status = ProbeResult::Status::skipped;
        r.error = e.what();
        r.verification = {Verification::Status::unverified, "the pair cannot share this memory"};
        return;
    }
    mark_run_failed(r, e);
}

ProbeResult make_no_pair_result(const ProbeContext &ctx, std::string_view probe,
                                const std::vector<std::string> &skipped, Sharing sharing)
{
    ProbeResult r = make_result(ctx, probe);
    r.metric = "count";
    r.unit = std::string("1");
    r.status = ProbeResult::Status::skipped;
    std::string why = fmt::format("no exporter in this run can share {} with {}",
                                  sharing == Sharing::semaphores ? "a semaphore" : "memory", ctx.record.id);
    for (const std::string &s : skipped)
        why += "; " + s;
    r.error = why;
    r.verification = {Verification::Status::unverified, "nothing was shared"};
    return r;
}

} // namespace vrb::interop
