#include <vrambench/core/modules/external_semaphore.hpp>

#include <fmt/format.h>

namespace vrb {

namespace {

struct Slot {
    const char *name;
    bool present;
};

std::optional<std::string> gap(const Module &module, std::initializer_list<Slot> slots)
{
    std::string missing;
    for (const Slot &slot : slots)
        if (!slot.present) missing += (missing.empty() ? "" : ", ") + std::string(slot.name);
    if (missing.empty()) return std::nullopt;
    return fmt::format("the {} module has no {} (external semaphores, ABI 1.4; it speaks {}.{})", module.name(),
                       missing, VRB_VERSION_MAJOR(module.version()), VRB_VERSION_MINOR(module.version()));
}

template <typename Member> bool has(const Module &module, Member vrb_plugin_table::*member)
{
    return module.slot(member) != nullptr;
}

template <typename Member> Member need(const Module &module, Member vrb_plugin_table::*member, const char *name)
{
    const Member slot = module.slot(member);
    if (!slot)
        throw BackendError(
            VRB_ERROR_UNSUPPORTED,
            fmt::format("the {} module offers no {} (external semaphores, ABI 1.4)", module.name(), name));
    return slot;
}

} // namespace

std::optional<std::string> semaphore_export_gap(const Module &m)
{
    return gap(m, {{"semaphore_create_exportable", has(m, &vrb_plugin_table::semaphore_create_exportable)},
                   {"semaphore_export", has(m, &vrb_plugin_table::semaphore_export)},
                   {"semaphore_signal", has(m, &vrb_plugin_table::semaphore_signal)},
                   {"semaphore_device_wait", has(m, &vrb_plugin_table::semaphore_device_wait)},
                   {"semaphore_host_wait", has(m, &vrb_plugin_table::semaphore_host_wait)},
                   {"semaphore_free", has(m, &vrb_plugin_table::semaphore_free)}});
}

std::optional<std::string> semaphore_import_gap(const Module &m)
{
    return gap(m, {{"semaphore_import", has(m, &vrb_plugin_table::semaphore_import)},
                   {"semaphore_signal", has(m, &vrb_plugin_table::semaphore_signal)},
                   {"semaphore_device_wait", has(m, &vrb_plugin_table::semaphore_device_wait)},
                   {"semaphore_host_wait", has(m, &vrb_plugin_table::semaphore_host_wait)},
                   {"semaphore_free", has(m, &vrb_plugin_table::semaphore_free)}});
}

Semaphore::Semaphore(Device &device, vrb_semaphore *handle) : device_(device), handle_(handle) {}

Semaphore::~Semaphore()
{
    // A module that made a semaphore has the free slot: the gaps above ask for it.
    if (const auto release = device_.module().slot(&vrb_plugin_table::semaphore_free)) release(handle_);
}

void Semaphore::signal(uint64_t value)
{
    const Module &module = device_.module();
    module.check(
        need(module, &vrb_plugin_table::semaphore_signal, "semaphore_signal")(device_.handle(), handle_, value),
        "semaphore_signal");
}

void Semaphore::device_wait(uint64_t value)
{
    const Module &module = device_.module();
    module.check(need(module, &vrb_plugin_table::semaphore_device_wait, "semaphore_device_wait")(device_.handle(),
                                                                                                 handle_, value),
                 "semaphore_device_wait");
}

void Semaphore::host_wait(uint64_t value, uint64_t timeout_ns)
{
    const Module &module = device_.module();
    module.check(
        need(module, &vrb_plugin_table::semaphore_host_wait, "semaphore_host_wait")(handle_, value, timeout_ns),
        "semaphore_host_wait");
}

std::unique_ptr<Semaphore> create_exportable_semaphore(Device &device, uint32_t handle_type)
{
    const Module &module = device.module();
    if (auto why = semaphore_export_gap(module)) throw BackendError(VRB_ERROR_UNSUPPORTED, *why);
    vrb_semaphore *made = nullptr;
    module.check(module.slot(&vrb_plugin_table::semaphore_create_exportable)(device.handle(), handle_type, &made),
                 "semaphore_create_exportable");
    module.check_handle(made, "semaphore_create_exportable");
    return std::make_unique<Semaphore>(device, made);
}

ExternalHandle export_semaphore(const Semaphore &semaphore)
{
    const Module &module = semaphore.device().module();
    const auto slot = need(module, &vrb_plugin_table::semaphore_export, "semaphore_export");
    vrb_external_handle h{};
    h.struct_size = sizeof h;
    h.handle = -1;
    module.check(slot(semaphore.handle(), &h), "semaphore_export");
    return ExternalHandle(h);
}

std::unique_ptr<Semaphore> import_semaphore(Device &device, ExternalHandle &handle)
{
    const Module &module = device.module();
    if (auto why = semaphore_import_gap(module)) throw BackendError(VRB_ERROR_UNSUPPORTED, *why);
    vrb_semaphore *imported = nullptr;
    module.check(module.slot(&vrb_plugin_table::semaphore_import)(device.handle(), &handle.get(), &imported),
                 "semaphore_import");
    handle.given_away();
    module.check_handle(imported, "semaphore_import");
    return std::make_unique<Semaphore>(device, imported);
}

} // namespace vrb
