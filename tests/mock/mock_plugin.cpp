// A backend that plays one fault, chosen at build time by a MOCK_* define; built once
// per fault so the loader's every refusal path is fed a real module.
//
//   MOCK_OK              a working backend with one device and no operations
//   MOCK_WRONG_MAJOR     answers with ABI major 2 although the host offered 1
//   MOCK_REFUSES_VERSION refuses the host's version and names its own (0.9)
//   MOCK_NO_ENTRY        exports no entry symbol
//   MOCK_INIT_FAILS      init fails with a device error
//   MOCK_UNAVAILABLE     init says its driver is missing
//   MOCK_SHORT_TABLE     a table that ends right after run(): optional slots absent
//   MOCK_NO_TABLE        the entry succeeds but hands back no table
//   MOCK_SMALL_MEMORY    one memory kind of 64 MiB in all: an allocation past it is
//                        refused as out of memory, a freed one gives its bytes back
//   MOCK_LEAKS           a working backend whose init loses a heap block: the sanitizer
//                        build must report it, naming this module
//   MOCK_LONG_TEXT       fills every text field of its description, its memory kind,
//                        cache and property to the last byte, without a NUL
//   MOCK_MANY_DEVICES    answers 4294967295 devices
//   MOCK_MANY_KINDS      answers 65 memory kinds
//   MOCK_MANY_CACHES     describes VRB_MAX_CACHES + 1 caches
//   MOCK_MANY_HEAPS      describes VRB_MAX_HEAPS + 1 heaps
//   MOCK_MANY_PROPERTIES describes VRB_MAX_PROPERTIES + 1 properties
//   MOCK_BAD_NAME        calls itself "../../evil name"
//   MOCK_NULL_INIT       init answers VRB_OK without a context
//   MOCK_NULL_OPEN       device_open answers VRB_OK without a device
//   MOCK_NULL_ALLOC      buffer_alloc answers VRB_OK without a buffer
#include <vrambench/plugin_support.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using vrb::plugin::set_error;

struct vrb_context {
    int unused;
};
struct vrb_device {
    int unused;
};
struct vrb_buffer {
    int unused;
};

namespace {

[[maybe_unused]] vrb_context the_context{};
[[maybe_unused]] vrb_device the_device{};

const char *last_error()
{
    return vrb::plugin::last_error();
}

vrb_status init(const vrb_host_table *, vrb_context **out)
{
#if defined(MOCK_INIT_FAILS)
    (void)out;
    return set_error(VRB_ERROR_DEVICE, "mock init failed on purpose");
#elif defined(MOCK_UNAVAILABLE)
    (void)out;
    return set_error(VRB_ERROR_UNAVAILABLE, "mock driver is not installed");
#elif defined(MOCK_NULL_INIT)
    (void)out;
    return VRB_OK;
#else
#if defined(MOCK_LEAKS)
    // volatile: the compiler may not drop an allocation whose pointer is only stored.
    void *volatile lost = std::malloc(4096);
    std::memset(lost, 0x5a, 4096);
    lost = nullptr;
#endif
    *out = &the_context;
    return VRB_OK;
#endif
}

void shutdown(vrb_context *) {}

vrb_status device_count(vrb_context *, uint32_t *out)
{
#if defined(MOCK_MANY_DEVICES)
    *out = 4294967295u;
#else
    *out = 1;
#endif
    return VRB_OK;
}

#if defined(MOCK_LONG_TEXT)
// Every byte of the field set, no NUL: a reader that takes it for a C string runs on.
template <std::size_t N> void fill(char (&field)[N], char c)
{
    std::memset(field, c, N);
}
#endif

vrb_status device_describe(vrb_context *, uint32_t index, vrb_device_info *out)
{
    if (index != 0) return set_error(VRB_ERROR_INVALID_ARGUMENT, "mock has one device");
    vrb::plugin::copy_string(out->name, "mock device");
    vrb::plugin::copy_string(out->api, "mock");
    out->type = VRB_DEVICE_OTHER;
#if defined(MOCK_LONG_TEXT)
    fill(out->name, 'n');
    vrb::plugin::copy_string(out->vendor, "mock vendor");
    fill(out->api, 'a');
    fill(out->api_version, 'v');
    fill(out->driver_version, 'd');
    out->known |= VRB_KNOWN_API_VERSION | VRB_KNOWN_DRIVER_VERSION | VRB_KNOWN_PCI_ADDRESS;
    fill(out->pci_address, 'p');
    out->pci_vendor_id = 0x1234; // the field after the address: a reader running on shows it
    out->cache_count = 1;
    out->caches[0] = {2, 0, 1u << 20, {}};
    fill(out->caches[0].kind, 'k');
    out->property_count = 2;
    fill(out->properties[0].key, 'K');
    fill(out->properties[0].value, 'V');
    vrb::plugin::copy_string(out->properties[1].key, "second");
    vrb::plugin::copy_string(out->properties[1].value, "property");
#elif defined(MOCK_MANY_CACHES)
    out->cache_count = VRB_MAX_CACHES + 1;
#elif defined(MOCK_MANY_HEAPS)
    out->heap_count = VRB_MAX_HEAPS + 1;
#elif defined(MOCK_MANY_PROPERTIES)
    out->property_count = VRB_MAX_PROPERTIES + 1;
#endif
    return VRB_OK;
}

vrb_status device_open(vrb_context *, uint32_t, vrb_device **out)
{
#if defined(MOCK_NULL_OPEN)
    (void)out;
#else
    *out = &the_device;
#endif
    return VRB_OK;
}

void device_close(vrb_device *) {}

#if defined(MOCK_SMALL_MEMORY)
constexpr uint64_t kMemoryBytes = 64ull << 20;
uint64_t memory_used = 0;

vrb_status memory_kind_count(vrb_device *, uint32_t *out)
{
    *out = 1;
    return VRB_OK;
}

vrb_status memory_kind_describe(vrb_device *, uint32_t kind, vrb_memory_kind_info *out)
{
    if (kind != 0) return set_error(VRB_ERROR_INVALID_ARGUMENT, "mock has one memory kind");
    vrb::plugin::copy_string(out->name, "device");
    out->flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS;
    out->max_allocation_bytes = kMemoryBytes;
    return VRB_OK;
}

vrb_status buffer_alloc(vrb_device *, uint32_t kind, uint64_t bytes, vrb_buffer **out)
{
    if (kind != 0) return set_error(VRB_ERROR_INVALID_ARGUMENT, "mock has one memory kind");
    if (bytes == 0 || bytes > kMemoryBytes - memory_used)
        return set_error(VRB_ERROR_OUT_OF_MEMORY, "mock memory is full");
    memory_used += bytes;
    *out = static_cast<vrb_buffer *>(std::calloc(1, sizeof(vrb_buffer) + sizeof(uint64_t)));
    std::memcpy(reinterpret_cast<char *>(*out) + sizeof(vrb_buffer), &bytes, sizeof bytes);
    return VRB_OK;
}

void buffer_free(vrb_buffer *buffer)
{
    uint64_t bytes = 0;
    std::memcpy(&bytes, reinterpret_cast<char *>(buffer) + sizeof(vrb_buffer), sizeof bytes);
    memory_used -= bytes;
    std::free(buffer);
}
#elif defined(MOCK_LONG_TEXT) || defined(MOCK_MANY_KINDS) || defined(MOCK_NULL_ALLOC)
vrb_status memory_kind_count(vrb_device *, uint32_t *out)
{
#if defined(MOCK_MANY_KINDS)
    *out = 65;
#else
    *out = 1;
#endif
    return VRB_OK;
}

vrb_status memory_kind_describe(vrb_device *, uint32_t, vrb_memory_kind_info *out)
{
#if defined(MOCK_LONG_TEXT)
    fill(out->name, 'm');
#else
    vrb::plugin::copy_string(out->name, "device");
#endif
    out->flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS;
    out->heap_index = 7; // the field after the name
    return VRB_OK;
}

vrb_status buffer_alloc(vrb_device *, uint32_t, uint64_t, vrb_buffer **out)
{
#if defined(MOCK_NULL_ALLOC)
    (void)out;
    return VRB_OK;
#else
    (void)out;
    return set_error(VRB_ERROR_OUT_OF_MEMORY, "mock has no memory");
#endif
}

void buffer_free(vrb_buffer *) {}
#else
vrb_status memory_kind_count(vrb_device *, uint32_t *out)
{
    *out = 0;
    return VRB_OK;
}

vrb_status memory_kind_describe(vrb_device *, uint32_t, vrb_memory_kind_info *)
{
    return set_error(VRB_ERROR_INVALID_ARGUMENT, "mock has no memory kinds");
}

vrb_status buffer_alloc(vrb_device *, uint32_t, uint64_t, vrb_buffer **)
{
    return set_error(VRB_ERROR_OUT_OF_MEMORY, "mock has no memory");
}

void buffer_free(vrb_buffer *) {}
#endif

vrb_status buffer_upload(vrb_buffer *, uint64_t, const void *, uint64_t)
{
    return set_error(VRB_ERROR_UNSUPPORTED, "mock buffers hold nothing");
}

vrb_status buffer_download(vrb_buffer *, uint64_t, void *, uint64_t)
{
    return set_error(VRB_ERROR_UNSUPPORTED, "mock buffers hold nothing");
}

vrb_status run(vrb_device *, const vrb_operation *, uint32_t, double *, vrb_op_output *)
{
    return set_error(VRB_ERROR_UNSUPPORTED, "mock runs no operation");
}

vrb_status buffer_export(vrb_buffer *, vrb_external_handle *)
{
    return set_error(VRB_ERROR_UNSUPPORTED, "mock exports nothing");
}

const vrb_plugin_table table = {
#if defined(MOCK_SHORT_TABLE)
    static_cast<uint32_t>(offsetof(vrb_plugin_table, run) + sizeof(void *)),
#else
    sizeof(vrb_plugin_table),
#endif
    VRB_ABI_VERSION,
#if defined(MOCK_BAD_NAME)
    "../../evil name",
#else
    "mock",
#endif
    "a backend that plays one fault",
    "0",
    last_error,
    init,
    shutdown,
    device_count,
    device_describe,
    device_open,
    device_close,
    memory_kind_count,
    memory_kind_describe,
    buffer_alloc,
    buffer_free,
    buffer_upload,
    buffer_download,
    run,
    buffer_export, // beyond struct_size in the short-table variant: must read as absent
    nullptr,
};

} // namespace

#if !defined(MOCK_NO_ENTRY)
extern "C" VRB_EXPORT vrb_status vrb_plugin_entry(vrb_negotiation *negotiation)
{
#if defined(MOCK_WRONG_MAJOR)
    negotiation->module_version = VRB_MAKE_VERSION(2, 0);
    negotiation->table = &table;
    return VRB_OK;
#elif defined(MOCK_REFUSES_VERSION)
    negotiation->module_version = VRB_MAKE_VERSION(0, 9);
    std::snprintf(negotiation->message, sizeof negotiation->message, "mock only speaks 0.9");
    return VRB_ERROR_VERSION;
#elif defined(MOCK_NO_TABLE)
    negotiation->module_version = VRB_ABI_VERSION;
    negotiation->table = nullptr;
    return VRB_OK;
#else
    negotiation->module_version = VRB_ABI_VERSION;
    negotiation->table = &table;
    return VRB_OK;
#endif
}
#else
extern "C" VRB_EXPORT int vrb_not_the_entry(void)
{
    return 0;
}
#endif
