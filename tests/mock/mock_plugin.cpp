// A backend that plays one fault, named by the module's vrambench_mock_variant
// (mock_variant.hpp): this file is compiled once and linked once per fault, so the
// loader's every refusal path is fed a real module.
//
//   ok              a working backend with one device and no operations
//   wrong_major     answers with ABI major 2 although the host offered 1
//   refuses_version refuses the host's version and names its own (0.9)
//   no_entry        exports no entry symbol: no_entry_plugin.cpp, not this file
//   init_fails      init fails with a device error
//   unavailable     init says its driver is missing
//   short_table     a table that ends right after run(): optional slots absent
//   no_table        the entry succeeds but hands back no table
//   too_short_table a table whose size ends before run(), a call every module has
//   small_memory    one memory kind of 64 MiB in all: an allocation past it is
//                   refused as out of memory, a freed one gives its bytes back
//   leaks           a working backend whose init loses a heap block (1 MiB): the
//                   sanitizer build and the conformance kit must report it
//   long_text       fills every text field of its description, its memory kind,
//                   cache and property to the last byte, without a NUL
//   many_devices    answers 4294967295 devices
//   many_kinds      answers 65 memory kinds
//   many_caches     describes VRB_MAX_CACHES + 1 caches
//   many_heaps      describes VRB_MAX_HEAPS + 1 heaps
//   many_properties describes VRB_MAX_PROPERTIES + 1 properties
//   bad_name        calls itself "../../evil name"
//   null_init       init answers VRB_OK without a context
//   null_open       device_open answers VRB_OK without a device
//   null_alloc      buffer_alloc answers VRB_OK without a buffer
//   bad_answer      op_supported answers 0xdeadbeef, neither yes (1) nor no (0)
//
// The backend is three classes made into a table by make_table(), as every module's
// is. What make_table() would never produce is written by hand on top of its table:
// the entry's answers (wrong major, refusal, no table), a short struct_size, and the
// slots that answer VRB_OK with nothing (null_init, null_open, null_alloc).
#include "mock_variant.hpp"

#include <vrambench/plugin_table.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace {

using vrb::plugin::fail;

enum class Fault {
    ok,
    wrong_major,
    refuses_version,
    init_fails,
    unavailable,
    short_table,
    no_table,
    too_short_table,
    small_memory,
    leaks,
    long_text,
    many_devices,
    many_kinds,
    many_caches,
    many_heaps,
    many_properties,
    bad_name,
    null_init,
    null_open,
    null_alloc,
    bad_answer,
};

const Fault fault = vrb::mock::variant_of_module<Fault>({
    {"ok", Fault::ok},
    {"wrong_major", Fault::wrong_major},
    {"refuses_version", Fault::refuses_version},
    {"init_fails", Fault::init_fails},
    {"unavailable", Fault::unavailable},
    {"short_table", Fault::short_table},
    {"no_table", Fault::no_table},
    {"too_short_table", Fault::too_short_table},
    {"small_memory", Fault::small_memory},
    {"leaks", Fault::leaks},
    {"long_text", Fault::long_text},
    {"many_devices", Fault::many_devices},
    {"many_kinds", Fault::many_kinds},
    {"many_caches", Fault::many_caches},
    {"many_heaps", Fault::many_heaps},
    {"many_properties", Fault::many_properties},
    {"bad_name", Fault::bad_name},
    {"null_init", Fault::null_init},
    {"null_open", Fault::null_open},
    {"null_alloc", Fault::null_alloc},
    {"bad_answer", Fault::bad_answer},
});

constexpr uint64_t memory_bytes = 64ull << 20; // small_memory's
uint64_t memory_used = 0;

// Every byte of the field set, no NUL: a reader that takes it for a C string runs on.
template <std::size_t N> void fill(char (&field)[N], char c)
{
    std::memset(field, c, N);
}

class MockBuffer {
  public:
    explicit MockBuffer(uint64_t bytes) : bytes_(bytes) {}
    ~MockBuffer()
    {
        if (fault == Fault::small_memory) memory_used -= bytes_;
    }
    MockBuffer(const MockBuffer &) = delete;
    MockBuffer &operator=(const MockBuffer &) = delete;

    uint64_t size() const { return bytes_; }
    void upload(uint64_t, const void *, uint64_t) { fail(VRB_ERROR_UNSUPPORTED, "mock buffers hold nothing"); }
    void download(uint64_t, void *, uint64_t) { fail(VRB_ERROR_UNSUPPORTED, "mock buffers hold nothing"); }
    void export_handle(vrb_external_handle &) { fail(VRB_ERROR_UNSUPPORTED, "mock exports nothing"); }

  private:
    uint64_t bytes_;
};

class MockDevice {
  public:
    uint32_t memory_kind_count()
    {
        switch (fault) {
        case Fault::many_kinds: return 65;
        case Fault::small_memory:
        case Fault::long_text:
        case Fault::null_alloc:
        case Fault::bad_answer: return 1;
        default: return 0;
        }
    }

    void describe(uint32_t, vrb_memory_kind_info &info)
    {
        if (fault == Fault::long_text)
            fill(info.name, 'm');
        else
            vrb::plugin::copy_string(info.name, "device");
        info.flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS;
        if (fault == Fault::small_memory)
            info.max_allocation_bytes = memory_bytes;
        else
            info.heap_index = 7; // the field after the name
    }

    std::unique_ptr<MockBuffer> alloc(uint32_t, uint64_t bytes)
    {
        if (fault != Fault::small_memory) fail(VRB_ERROR_OUT_OF_MEMORY, "mock has no memory");
        if (bytes > memory_bytes - memory_used) fail(VRB_ERROR_OUT_OF_MEMORY, "mock memory is full");
        memory_used += bytes;
        return std::make_unique<MockBuffer>(bytes);
    }

    void run(const vrb_operation &, std::span<double>, vrb_op_output &)
    {
        fail(VRB_ERROR_UNSUPPORTED, "mock runs no operation");
    }
};

class MockContext {
  public:
    explicit MockContext(const vrb_host_table *)
    {
        if (fault == Fault::init_fails) fail(VRB_ERROR_DEVICE, "mock init failed on purpose");
        if (fault == Fault::unavailable) fail(VRB_ERROR_UNAVAILABLE, "mock driver is not installed");
        if (fault == Fault::leaks) {
            // volatile: the compiler may not drop an allocation whose pointer is only stored.
            // A MiB, so the conformance kit's leak check sees it past what driver stacks grow by.
            void *volatile lost = std::malloc(1u << 20);
            std::memset(lost, 0x5a, 1u << 20);
            lost = nullptr;
        }
    }

    uint32_t device_count() { return fault == Fault::many_devices ? 4294967295u : 1; }

    void describe(uint32_t, vrb_device_info &info)
    {
        vrb::plugin::copy_string(info.name, "mock device");
        vrb::plugin::copy_string(info.api, "mock");
        info.type = VRB_DEVICE_OTHER;
        switch (fault) {
        case Fault::long_text:
            fill(info.name, 'n');
            vrb::plugin::copy_string(info.vendor, "mock vendor");
            fill(info.api, 'a');
            fill(info.api_version, 'v');
            fill(info.driver_version, 'd');
            info.known |= VRB_KNOWN_API_VERSION | VRB_KNOWN_DRIVER_VERSION | VRB_KNOWN_PCI_ADDRESS;
            fill(info.pci_address, 'p');
            info.pci_vendor_id = 0x1234; // the field after the address: a reader running on shows it
            info.cache_count = 1;
            info.caches[0] = {2, 0, 1u << 20, {}};
            fill(info.caches[0].kind, 'k');
            info.property_count = 2;
            fill(info.properties[0].key, 'K');
            fill(info.properties[0].value, 'V');
            vrb::plugin::copy_string(info.properties[1].key, "second");
            vrb::plugin::copy_string(info.properties[1].value, "property");
            break;
        case Fault::many_caches: info.cache_count = VRB_MAX_CACHES + 1; break;
        case Fault::many_heaps: info.heap_count = VRB_MAX_HEAPS + 1; break;
        case Fault::many_properties: info.property_count = VRB_MAX_PROPERTIES + 1; break;
        default: break;
        }
    }

    std::unique_ptr<MockDevice> open(uint32_t) { return std::make_unique<MockDevice>(); }
};

// The slots that answer VRB_OK and hand back nothing: a broken module the host must
// refuse by name. make_table() refuses to produce them, so they are written here.
vrb_status init_without_context(const vrb_host_table *, vrb_context **)
{
    return VRB_OK;
}
vrb_status open_without_device(vrb_context *, uint32_t, vrb_device **)
{
    return VRB_OK;
}
vrb_status alloc_without_buffer(vrb_device *, uint32_t, uint64_t, vrb_buffer **)
{
    return VRB_OK;
}
vrb_status supported_neither_yes_nor_no(vrb_device *, uint32_t, uint32_t, uint32_t, uint32_t *answer)
{
    *answer = 0xdeadbeef;
    return VRB_OK;
}

vrb_plugin_table mock_table()
{
    const char *name = fault == Fault::bad_name ? "../../evil name" : "mock";
    vrb_plugin_table table =
        vrb::plugin::make_table<MockContext, MockDevice, MockBuffer>({name, "a backend that plays one fault", "0"});
    switch (fault) {
    case Fault::short_table:
        // An ABI 1.0 table, through run: buffer_export is set but past the end, and must
        // read as absent.
        table.struct_size = static_cast<uint32_t>(offsetof(vrb_plugin_table, run) + sizeof(void *));
        break;
    case Fault::too_short_table: table.struct_size = static_cast<uint32_t>(offsetof(vrb_plugin_table, run)); break;
    case Fault::null_init: table.init = init_without_context; break;
    case Fault::null_open: table.device_open = open_without_device; break;
    case Fault::null_alloc: table.buffer_alloc = alloc_without_buffer; break;
    case Fault::bad_answer: table.op_supported = supported_neither_yes_nor_no; break;
    default: break;
    }
    return table;
}

const vrb_plugin_table table = mock_table();

} // namespace

// The entry by hand, not VRB_DEFINE_PLUGIN_ENTRY: its faults are in the negotiation itself.
extern "C" VRB_EXPORT vrb_status vrb_plugin_entry(vrb_negotiation *negotiation)
{
    switch (fault) {
    case Fault::wrong_major:
        negotiation->module_version = VRB_MAKE_VERSION(2, 0);
        negotiation->table = &table;
        return VRB_OK;
    case Fault::refuses_version:
        negotiation->module_version = VRB_MAKE_VERSION(0, 9);
        std::snprintf(negotiation->message, sizeof negotiation->message, "mock only speaks 0.9");
        return VRB_ERROR_VERSION;
    case Fault::no_table:
        negotiation->module_version = VRB_ABI_VERSION;
        negotiation->table = nullptr;
        return VRB_OK;
    default:
        negotiation->module_version = VRB_ABI_VERSION;
        negotiation->table = &table;
        return VRB_OK;
    }
}
