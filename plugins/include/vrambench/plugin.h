/*
 * vrambench plugin ABI, version 1.7 (docs/plugin-abi.md lists the changes of each version).
 *
 * The stable C boundary between the vrambench core and a backend module
 * (vrambench-host, -vulkan, -cuda, -hip, -opencl, or a vendor's own).
 * Nothing of C++ crosses it: plain C99, fixed-width integers, opaque handles.
 *
 * Life of a module:
 *   1. The host dlopen()s the module and looks up VRB_ENTRY_SYMBOL.
 *   2. It calls the entry with the newest version it speaks (negotiation.host_version).
 *      The module answers with the version it will use and its function table, or
 *      refuses (VRB_ERROR_VERSION) and names its own version. The host refuses in turn
 *      when the answered major differs from its own. Minor versions only ever append.
 *   3. The host calls init(). A module whose runtime or driver is missing returns
 *      VRB_ERROR_UNAVAILABLE and says why through last_error(); the host lists the
 *      backend as unavailable and goes on.
 *   4. Devices are enumerated, described, opened; buffers allocated; operations run.
 *
 * Rules every module keeps:
 *   - Every call returns a vrb_status. A call that fails leaves a human-readable
 *     message, fetched with last_error() on the same thread before the next call.
 *   - No exception, longjmp, exit() or abort() ever leaves a call.
 *   - Every struct starts with struct_size. A struct only grows at its end; a reader
 *     reads a field only when offsetof(field) + sizeof(field) <= struct_size.
 *   - Optional function slots may be NULL, and slots past the table's struct_size do
 *     not exist: both mean "unsupported".
 *   - The host calls a module from one thread at a time.
 *   - Sizes, counts, offsets and indices are 64-bit.
 *
 * docs/plugin-abi.md explains the contract for someone writing a backend.
 */
#ifndef VRAMBENCH_PLUGIN_H
#define VRAMBENCH_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VRB_ABI_VERSION_MAJOR 1u
#define VRB_ABI_VERSION_MINOR 7u
#define VRB_MAKE_VERSION(major, minor) ((((uint32_t)(major)) << 16) | ((uint32_t)(minor)&0xffffu))
#define VRB_VERSION_MAJOR(v) ((uint32_t)(v) >> 16)
#define VRB_VERSION_MINOR(v) ((uint32_t)(v)&0xffffu)
#define VRB_ABI_VERSION VRB_MAKE_VERSION(VRB_ABI_VERSION_MAJOR, VRB_ABI_VERSION_MINOR)

/* The one symbol a module exports. */
#define VRB_ENTRY_SYMBOL "vrb_plugin_entry"

#if defined(_WIN32)
#define VRB_EXPORT __declspec(dllexport)
#else
#define VRB_EXPORT __attribute__((visibility("default")))
#endif

/*
 * How the module was compiled, for the host to read from its file without loading it:
 * an ELF note of owner VRB_BUILD_NOTE_NAME and type VRB_BUILD_NOTE_TYPE whose 4-byte
 * description is 1 when the file that defines the entry was compiled with optimisation
 * (__OPTIMIZE__: -O1 and above, -Os) and 0 when it was not (-O0, a Debug build). A module
 * built without optimisation times its own loops, not the memory; `list`, `plugin-check`
 * and every result set say so. VRB_DEFINE_PLUGIN_ENTRY (plugin_support.hpp) adds the note;
 * a module that defines its entry by hand writes VRB_DEFINE_BUILD_NOTE(); once at file
 * scope in the same file. No part of the table: a module without the note is "unknown".
 */
#define VRB_BUILD_NOTE_NAME "vrambench"
#define VRB_BUILD_NOTE_TYPE 1u
#if defined(__OPTIMIZE__)
#define VRB_BUILD_NOTE_OPTIMIZED "1"
#else
#define VRB_BUILD_NOTE_OPTIMIZED "0"
#endif
#if defined(__ELF__)
#define VRB_DEFINE_BUILD_NOTE()                                                                                        \
    __asm__(".pushsection .note.vrambench.build,\"a\",%note\n.balign 4\n.long 10\n.long 4\n.long 1\n"                  \
            ".asciz \"vrambench\"\n.balign 4\n.long " VRB_BUILD_NOTE_OPTIMIZED "\n.popsection\n")
#else
#define VRB_DEFINE_BUILD_NOTE() typedef int vrb_build_note_unused_
#endif

typedef enum vrb_status {
    VRB_OK = 0,
    VRB_ERROR_UNSUPPORTED = 1,      /* the operation, kind or parameter is not offered */
    VRB_ERROR_INVALID_ARGUMENT = 2, /* the caller asked something malformed */
    VRB_ERROR_OUT_OF_MEMORY = 3,    /* an allocation failed; nothing was leaked */
    VRB_ERROR_DEVICE = 4,           /* the driver or device failed */
    VRB_ERROR_UNAVAILABLE = 5,      /* runtime or driver missing: say why */
    VRB_ERROR_TIMER = 6,            /* a device timer gave an impossible duration */
    VRB_ERROR_VERSION = 7,          /* no common ABI version */
    VRB_ERROR_CANCELLED = 8,        /* the host asked to stop */
    VRB_ERROR_INTERNAL = 9
} vrb_status;

/* ---------------------------------------------------------------- host table */

typedef enum vrb_log_level {
    VRB_LOG_DEBUG = 0,
    VRB_LOG_INFO = 1,
    VRB_LOG_WARNING = 2,
    VRB_LOG_ERROR = 3
} vrb_log_level;

/* What the host offers the module. Valid until the module is unloaded. */
typedef struct vrb_host_table {
    uint32_t struct_size;
    uint32_t abi_version;
    void *user;
    void (*log)(void *user, int32_t level, const char *message);
    /* Nonzero once the user asked to stop; long operations poll it between runs. */
    int32_t (*is_cancelled)(void *user);
} vrb_host_table;

/* ---------------------------------------------------------------- devices */

/* Bits of vrb_device_info.known: a field whose bit is clear is unknown. */
enum {
    VRB_KNOWN_PCI_IDS = 1u << 0,
    VRB_KNOWN_PCI_ADDRESS = 1u << 1,
    VRB_KNOWN_UUID = 1u << 2,
    VRB_KNOWN_TOTAL_MEMORY = 1u << 3,
    VRB_KNOWN_FREE_MEMORY = 1u << 4,
    VRB_KNOWN_BUS_WIDTH = 1u << 5,
    VRB_KNOWN_MEMORY_CLOCK = 1u << 6,
    VRB_KNOWN_COMPUTE_UNITS = 1u << 7,
    VRB_KNOWN_CORE_CLOCK = 1u << 8,
    VRB_KNOWN_DRIVER_VERSION = 1u << 9,
    VRB_KNOWN_API_VERSION = 1u << 10
};

typedef enum vrb_device_type {
    VRB_DEVICE_OTHER = 0,
    VRB_DEVICE_CPU = 1,
    VRB_DEVICE_DISCRETE_GPU = 2,
    VRB_DEVICE_INTEGRATED_GPU = 3,
    VRB_DEVICE_VIRTUAL_GPU = 4
} vrb_device_type;

#define VRB_MAX_CACHES 8
#define VRB_MAX_HEAPS 16
#define VRB_MAX_PROPERTIES 32

typedef struct vrb_cache_info {
    uint32_t level;     /* 1, 2, 3 ... */
    uint32_t shared_by; /* compute units sharing one instance; 0 if unknown */
    uint64_t bytes;     /* size of one instance */
    char kind[16];      /* "data", "unified", "instruction" */
} vrb_cache_info;

typedef struct vrb_heap_info {
    uint64_t bytes;
    uint64_t budget_bytes; /* what the driver says this process may use; 0 if unknown */
    uint32_t flags;        /* VRB_MEMORY_* of the heap */
    uint32_t reserved;
} vrb_heap_info;

/*
 * Properties the core reads, beside those it only keeps (optional; a module of any 1.x
 * may set them, an older core keeps them as plain facts):
 *   VRB_PROPERTY_TRANSFERS_PER_CLOCK  "1" to "16": how many transfers each pin of the
 *       memory bus makes per cycle of memory_clock_khz, as this module reports that clock.
 *       The core's peak from the clock is transfers x clock x bus width / 8. Without it
 *       the core guesses from the api (half the per-pin data rate: 2; HIP's HBM3: 4),
 *       which a new API's clock need not follow. A datasheet entry for the card's PCI
 *       ids still comes first (docs/probes.md, "Sizes, caches and peaks").
 */
#define VRB_PROPERTY_TRANSFERS_PER_CLOCK "memory_transfers_per_clock"
/*
 *   VRB_PROPERTY_DATA_TLB  the device's data TLBs, level by level: "L1 72x4K 72x2M; L2
 *       3072x4K 3072x2M" (entries x page size, K, M or G). A latency curve's step at a
 *       TLB's reach (entries x page) inside a cache level is named after the TLB, not
 *       taken for a cache (docs/probes.md). The CPU modules read it from CPUID.
 */
#define VRB_PROPERTY_DATA_TLB "data_tlb"

/* A backend-specific fact worth keeping (a limit, ECC state, subgroup size). */
typedef struct vrb_property {
    char key[48];
    char value[80];
} vrb_property;

typedef struct vrb_device_info {
    uint32_t struct_size;
    uint32_t type;  /* vrb_device_type */
    uint64_t known; /* VRB_KNOWN_* bits */
    char name[256];
    char vendor[64];
    char api[32];             /* "CUDA", "Vulkan", "host" ... */
    char api_version[64];     /* as the API spells it */
    char driver_version[128]; /* as the driver spells it */
    uint32_t pci_vendor_id;
    uint32_t pci_device_id;
    char pci_address[32]; /* "dddd:bb:dd.f", lower case */
    uint8_t uuid[16];
    uint64_t total_memory_bytes;
    uint64_t free_memory_bytes;
    uint32_t memory_bus_width_bits;
    /* The memory clock as the runtimes report it: half the per-pin data rate. */
    uint32_t memory_clock_khz;
    uint32_t compute_units; /* SMs, CUs, execution units or CPU cores */
    uint32_t core_clock_khz;
    uint32_t cache_count;
    uint32_t heap_count;
    vrb_cache_info caches[VRB_MAX_CACHES];
    vrb_heap_info heaps[VRB_MAX_HEAPS];
    uint32_t property_count;
    uint32_t reserved;
    vrb_property properties[VRB_MAX_PROPERTIES];
} vrb_device_info;

/* ---------------------------------------------------------------- memory kinds */

enum {
    VRB_MEMORY_DEVICE_LOCAL = 1u << 0,  /* on the device's own memory */
    VRB_MEMORY_HOST_VISIBLE = 1u << 1,  /* the host can map it */
    VRB_MEMORY_HOST_COHERENT = 1u << 2, /* mapped writes need no flush */
    VRB_MEMORY_HOST_CACHED = 1u << 3,   /* host reads are cached */
    VRB_MEMORY_PINNED = 1u << 4,        /* host memory locked for DMA */
    VRB_MEMORY_PAGEABLE = 1u << 5,      /* ordinary host memory */
    VRB_MEMORY_DEVICE_ACCESS = 1u << 6, /* kernels can read and write it */
    VRB_MEMORY_HOST_MEMORY = 1u << 7    /* it lives in system RAM */
};

typedef struct vrb_memory_kind_info {
    uint32_t struct_size;
    uint32_t flags;      /* VRB_MEMORY_* */
    char name[64];       /* stable, lower-case, e.g. "device", "pinned", "device-local+host-visible" */
    uint32_t heap_index; /* into vrb_device_info.heaps, or UINT32_MAX */
    uint32_t reserved;
    uint64_t max_allocation_bytes; /* 0 if no limit is known */
} vrb_memory_kind_info;

/* ---------------------------------------------------------------- operations */

/*
 * The operation vocabulary. Elements are 4, 8 or 16 bytes made of 32-bit unsigned
 * lanes (1, 2 or 4 lanes); arithmetic is lane-wise and wraps modulo 2^32, so every
 * backend computes bit-identical results and the host can verify them exactly.
 * Sums (read, dot, strided read, gather) add lanes into a 64-bit total modulo 2^64,
 * which no reduction order can change.
 *
 *   READ          sum(src1)                                  -> checksum
 *   WRITE         dst[i] = vrb_pattern_random(lane, seed)    (pattern.h)
 *   COPY          dst = src1
 *   SCALE         dst = scalar * src1
 *   ADD           dst = src1 + src2
 *   TRIAD         dst = src1 + scalar * src2
 *   DOT           sum(src1 * src2), products taken mod 2^32   -> checksum
 *   STRIDED_READ  sum(src1[i * stride]) for i < count          -> checksum
 *   GATHER        sum(src1[index[i]]), index = src2 as uint32  -> checksum
 *   CHASE         j = 0; repeat count times: j = src1[j] (uint32 indices, one thread)
 *                                                              -> checksum = final j
 *   TRANSFER      copy count bytes src1 -> dst with the API's copy engine;
 *                 with src2 and dst2 set, copy src2 -> dst2 at the same time
 *   FILL          dst[lane] = vrb_pattern(pattern, lane, seed)
 *   CHECK         compare src1 with vrb_pattern(pattern, lane, seed)
 *                                         -> mismatches, first_mismatch (a lane index)
 *
 * The sums count every lane of a wide element: READ, DOT, STRIDED_READ and GATHER at 8 or
 * 16 bytes add all 2 or 4 lanes of each element they visit. STRIDED_READ's stride and
 * GATHER's indices count elements, not lanes or bytes: element i of a 16-byte STRIDED_READ
 * is lanes 4*i*stride .. 4*i*stride+3 of src1, and index value e names lanes
 * e*lanes_per_element onward (the kit checks both this way, as the template computes it).
 *
 * Lane indices (for WRITE, FILL, CHECK and first_mismatch) count from the operand's
 * offset: lane 0 is the first lane at dst.offset (src1.offset for CHECK).
 * "count" is in elements (bytes for TRANSFER, steps for CHASE). Offsets are in bytes
 * and are multiples of element_bytes (4 for CHASE and GATHER's index). Every run of an
 * operation computes the same result, so repeating it changes nothing. The bytes an
 * operation writes (dst, dst2) overlap none it reads (src1, src2) nor each other, so a
 * module may load and store them in any order (the SDK's check_operation refuses an
 * operation that breaks this); the sources may overlap each other.
 *
 * GATHER's indices and CHASE's chain address src1 from its offset, as far as src1's
 * buffer goes: an index at or past the elements that buffer holds after the offset is
 * never followed; the module answers VRB_ERROR_INVALID_ARGUMENT naming the index. CHASE
 * always reads 4-byte indices; its element_bytes is checked but otherwise unused.
 *
 * Passes: one timed run may do the whole operation `passes` times back to back (0 and
 * 1 both mean once), so a working set that fits in a cache is timed over many passes
 * instead of over one dispatch's overhead, as STREAM and likwid-bench do. A module
 * that honours it writes the passes each run made to vrb_op_output.passes; the core
 * counts bytes from that figure, so a module that leaves it 0 (one pass) still yields
 * a correct, if overhead-bound, figure. The answer is that of one pass.
 */
typedef enum vrb_op_kind {
    VRB_OP_READ = 1,
    VRB_OP_WRITE = 2,
    VRB_OP_COPY = 3,
    VRB_OP_SCALE = 4,
    VRB_OP_ADD = 5,
    VRB_OP_TRIAD = 6,
    VRB_OP_DOT = 7,
    VRB_OP_STRIDED_READ = 8,
    VRB_OP_GATHER = 9,
    VRB_OP_CHASE = 10,
    VRB_OP_TRANSFER = 11,
    VRB_OP_FILL = 12,
    VRB_OP_CHECK = 13
} vrb_op_kind;

typedef struct vrb_context vrb_context;     /* a loaded, initialised backend */
typedef struct vrb_device vrb_device;       /* an opened device */
typedef struct vrb_buffer vrb_buffer;       /* memory of one kind on one device */
typedef struct vrb_semaphore vrb_semaphore; /* a timeline semaphore of one device (since 1.4) */

typedef struct vrb_operand {
    vrb_buffer *buffer; /* NULL when the operation does not use it */
    uint64_t offset;    /* bytes from the buffer's start */
} vrb_operand;

typedef struct vrb_operation {
    uint32_t struct_size;
    uint32_t kind;          /* vrb_op_kind */
    uint32_t element_bytes; /* 4, 8 or 16 (1 for TRANSFER) */
    uint32_t pattern;       /* vrb_pattern_kind, for FILL and CHECK */
    uint64_t count;
    uint64_t stride; /* elements, STRIDED_READ; >= 1 */
    uint32_t scalar; /* SCALE and TRIAD */
    uint32_t seed;   /* WRITE, FILL, CHECK */
    vrb_operand dst;
    vrb_operand src1;
    vrb_operand src2;
    vrb_operand dst2;
    uint32_t passes; /* the whole operation this many times per timed run; 0 or 1: once */
    uint32_t flags;  /* vrb_operation_flags: how the host asks it done; 0: as the module sees fit */
} vrb_operation;

/* Bits of vrb_operation.flags. The word was reserved (left 0) before, so an older host
 * asks nothing of them, and a module that does not know a bit does as it always did:
 * the output says what was done, and the host reads that, never the bit it asked. */
typedef enum vrb_operation_flags {
    /* READ: one read of the set by the whole device, its units sharing it out whatever
     * its size, never every unit walking it whole (a first read of memory another API
     * wrote). A module that honours it leaves VRB_OUTPUT_WHOLE_SET_PER_UNIT clear. */
    VRB_OPERATION_ONE_READ = 1u << 0,
    /* TRANSFER: copy with the device's compute units (a kernel reading src1 and writing
     * dst) instead of its copy engine, where a kernel reaches both sides (device memory,
     * pinned or mapped host memory, a peer's memory). A module that did so sets
     * VRB_OUTPUT_ENGINE_SM; one that cannot answers VRB_ERROR_UNSUPPORTED. */
    VRB_OPERATION_ENGINE_SM = 1u << 1
} vrb_operation_flags;

typedef struct vrb_op_output {
    uint32_t struct_size;
    uint32_t timer; /* vrb_timer_kind: what timed the runs */
    uint64_t checksum;
    uint64_t mismatches;
    uint64_t first_mismatch; /* lane index, valid when mismatches > 0 */
    uint32_t passes;         /* passes each run made (vrb_operation.passes); 0: one */
    uint32_t flags;          /* vrb_output_flags: how the runs were made; 0: as asked (all a 1.5 module says) */
    /* Since 1.7: the page size the OS backs the operation's buffers with, the smallest
     * where they differ (4096; 2 MiB where every resident page of them is a transparent
     * or hugetlbfs huge page); 0 when the module does not know (every module before 1.7,
     * and GPU modules whose driver keeps it). It decides how much of a working set the
     * TLB reaches (entries x page size). The core reads it only where struct_size holds it. */
    uint64_t page_bytes;
} vrb_op_output;

/* Bits of vrb_op_output.flags. The word was reserved (left 0) before, so a module that
 * never sets it says nothing more than the operation's definition. */
typedef enum vrb_output_flags {
    /* Every compute unit walked the whole working set, which was too small to share
     * out among the device's units: each unit's caches held all of it. `passes` counts
     * the walks of all units, so bytes = passes x the operation's bytes still holds. */
    VRB_OUTPUT_WHOLE_SET_PER_UNIT = 1u << 0,
    /* A TRANSFER in both directions made its two copies one after the other, not at
     * once (e.g. CUDA copies pageable host memory synchronously with the host). */
    VRB_OUTPUT_SEQUENTIAL = 1u << 1,
    /* A TRANSFER was copied by a kernel on the device's compute units, as
     * VRB_OPERATION_ENGINE_SM asked; clear: by the copy engine (the API's copy call). */
    VRB_OUTPUT_ENGINE_SM = 1u << 2
} vrb_output_flags;

typedef enum vrb_timer_kind {
    VRB_TIMER_HOST_MONOTONIC = 1,    /* a monotonic host clock (CLOCK_MONOTONIC, steady_clock) around the run */
    VRB_TIMER_DEVICE_EVENTS = 2,     /* cudaEvent / hipEvent */
    VRB_TIMER_DEVICE_TIMESTAMPS = 3, /* Vulkan timestamp queries */
    VRB_TIMER_PROFILING_EVENTS = 4,  /* OpenCL profiling info */
    /* Device timestamps of several queues, each placed on the host's monotonic clock
     * through a calibration (VK_EXT_calibrated_timestamps): timestamps of two queues
     * are not comparable as they stand. Since ABI 1.1; an older host reads it as a
     * timer it does not know. */
    VRB_TIMER_CALIBRATED_TIMESTAMPS = 5
} vrb_timer_kind;

/* ---------------------------------------------------------------- external memory */

/*
 * One allocation seen through two APIs (docs/interop.md). An exporter hands out a
 * handle; an importer on the same card (or, for host memory, any device) makes a
 * buffer of it. Ownership:
 *   - buffer_export of a file descriptor type creates a new fd that the caller owns:
 *     it passes it to one buffer_import or closes it.
 *   - buffer_import of an fd takes the fd on success (the importer closes it, or the
 *     driver does, when the buffer is freed); on failure the fd stays the caller's,
 *     who closes it. CUDA and Vulkan behave so, and every module must.
 *   - VRB_EXTERNAL_HOST_POINTER transfers nothing: the memory stays the exporter's, and
 *     the exporting buffer must outlive every buffer imported from it.
 * An importer validates a handle before any driver call (the fd is open and is memory,
 * its size agrees with the handle, the UUIDs, or across APIs the PCI address, name its
 * own card, a host pointer is page-aligned): handing a driver a bad fd is undefined
 * behaviour.
 */
typedef enum vrb_external_handle_type {
    VRB_EXTERNAL_OPAQUE_FD = 1, /* the API's opaque POSIX file descriptor */
    VRB_EXTERNAL_DMA_BUF = 2,   /* a Linux dma-buf fd */
    /* Since 1.2: `handle` is the address of host memory the exporter owns. */
    VRB_EXTERNAL_HOST_POINTER = 3
} vrb_external_handle_type;

/* Bits of vrb_external_handle.flags (since 1.2). */
enum {
    VRB_EXTERNAL_DEDICATED = 1u << 0,        /* the exporter's allocation is dedicated to one buffer */
    VRB_EXTERNAL_UUIDS_KNOWN = 1u << 1,      /* device_uuid and driver_uuid are filled */
    VRB_EXTERNAL_PCI_ADDRESS_KNOWN = 1u << 2 /* since 1.6: pci_address is filled */
};

typedef struct vrb_external_handle {
    uint32_t struct_size;
    uint32_t type;  /* vrb_external_handle_type */
    int64_t handle; /* the fd, or the address for VRB_EXTERNAL_HOST_POINTER */
    uint64_t bytes; /* the buffer's bytes, from the start of the allocation */
    /* Since 1.2. An opaque fd can only be imported with the exporter's allocation size
     * and memory type, and as a dedicated allocation exactly when the exporter's was. */
    uint64_t allocation_bytes;  /* the whole exported allocation; >= bytes */
    uint32_t memory_type_index; /* the exporter's memory type (Vulkan), or UINT32_MAX */
    uint32_t flags;             /* VRB_EXTERNAL_* */
    uint8_t device_uuid[16];    /* the exporter's card, as vrb_device_info.uuid */
    uint8_t driver_uuid[16];    /* the exporting driver (Vulkan's driverUUID) */
    char api[32];               /* the exporter's vrb_device_info.api: "Vulkan", "CUDA", "host" */
    /* Since 1.6, read and written only where struct_size holds it: the exporter's card as
     * vrb_device_info.pci_address ("dddd:bb:dd.f"), where VRB_EXTERNAL_PCI_ADDRESS_KNOWN.
     * APIs name one card by different UUIDs (HIP's and Vulkan's on AMD): an importer of
     * another API whose UUID differs matches the card by this address instead. */
    char pci_address[32];
} vrb_external_handle;

/* ---------------------------------------------------------------- external semaphores */

/*
 * Since 1.4: a timeline semaphore (a 64-bit counter that only grows) that one device
 * exports and another device, of the same API or another, imports, so that work on one
 * waits for work on the other without the host in between (docs/interop.md,
 * interop.sync). It crosses as a vrb_external_handle of type VRB_EXTERNAL_OPAQUE_FD
 * whose `bytes` and `allocation_bytes` are 0 (a handle with bytes is memory, and is
 * refused), `memory_type_index` UINT32_MAX, and whose UUIDs name the exporter's card as
 * for memory. Ownership:
 *   - semaphore_export creates a new fd the caller owns: it passes it to one
 *     semaphore_import or closes it.
 *   - semaphore_import takes the fd on success (the importer closes it, or its driver
 *     does); on failure the fd stays the caller's, who closes it.
 * An importer checks the handle before any driver call: the fd is open, is not a
 * regular file, pipe, socket or directory (an API's semaphore fd is none of those), and
 * the UUIDs name its own card. A semaphore is freed before its device is closed, and
 * with no device-side wait on it still pending; an imported semaphore and its exporter
 * share one counter, and either may be freed first.
 * A module whose API's own semaphores are something else (a test module's counter in
 * a memfd) names its api in the handle, and imports only handles of that api.
 */

/* ---------------------------------------------------------------- the module's table */

typedef struct vrb_plugin_table {
    uint32_t struct_size;
    uint32_t abi_version;    /* the version this table follows */
    const char *name;        /* backend name: lower case, [a-z0-9_-], e.g. "vulkan" */
    const char *description; /* one line */
    const char *module_version;

    /* Message of the last failed call on this thread; never NULL. */
    const char *(*last_error)(void);

    vrb_status (*init)(const vrb_host_table *host, vrb_context **out);
    void (*shutdown)(vrb_context *ctx);

    vrb_status (*device_count)(vrb_context *ctx, uint32_t *out);
    /* The host sets out->struct_size; the module fills what fits. */
    vrb_status (*device_describe)(vrb_context *ctx, uint32_t index, vrb_device_info *out);
    vrb_status (*device_open)(vrb_context *ctx, uint32_t index, vrb_device **out);
    void (*device_close)(vrb_device *device);

    vrb_status (*memory_kind_count)(vrb_device *device, uint32_t *out);
    vrb_status (*memory_kind_describe)(vrb_device *device, uint32_t kind, vrb_memory_kind_info *out);

    /* Contents of a new buffer are undefined. */
    vrb_status (*buffer_alloc)(vrb_device *device, uint32_t kind, uint64_t bytes, vrb_buffer **out);
    void (*buffer_free)(vrb_buffer *buffer);
    vrb_status (*buffer_upload)(vrb_buffer *buffer, uint64_t offset, const void *src, uint64_t bytes);
    vrb_status (*buffer_download)(vrb_buffer *buffer, uint64_t offset, void *dst, uint64_t bytes);

    /*
     * Runs the operation `repetitions` times back to back and writes each run's
     * duration in seconds, measured by the device's own clock where it has one, to
     * seconds[0 .. repetitions-1]. A duration that is zero, negative or wrapped is
     * VRB_ERROR_TIMER, never a number. out->checksum and the mismatch fields hold
     * the last run's answer.
     */
    vrb_status (*run)(vrb_device *device, const vrb_operation *op, uint32_t repetitions, double *seconds,
                      vrb_op_output *out);

    /*
     * Optional (NULL when absent): external memory sharing between APIs; ownership of
     * each fd is stated above vrb_external_handle_type. The host sets out->struct_size;
     * a module of 1.2 fills what fits and refuses a struct too small for the 1.2 fields.
     * buffer_export answers VRB_ERROR_UNSUPPORTED for a buffer that was not allocated
     * exportable (buffer_alloc_exportable), except host memory exported by pointer.
     * buffer_import's kind is ignored: the handle decides the memory; the new buffer
     * reports the importer's kind that matches it.
     */
    vrb_status (*buffer_export)(vrb_buffer *buffer, vrb_external_handle *out);
    vrb_status (*buffer_import)(vrb_device *device, const vrb_external_handle *handle, uint32_t kind, vrb_buffer **out);

    /* Since 1.2, optional: a buffer of one allocation that buffer_export can hand out
     * as `handle_type` (vrb_external_handle_type). VRB_ERROR_UNSUPPORTED where the
     * driver cannot export that kind or size of memory. */
    vrb_status (*buffer_alloc_exportable)(vrb_device *device, uint32_t kind, uint64_t bytes, uint32_t handle_type,
                                          vrb_buffer **out);

    /*
     * Since 1.3, optional: whether run() can do `op_kind` (vrb_op_kind) at
     * `element_bytes` on buffers of memory kind `memory_kind`, asked before any buffer
     * exists. *out = 1 when run() will do it, 0 when run() would answer
     * VRB_ERROR_UNSUPPORTED. An op kind this module does not know is 0; a kind index
     * out of range, or a width run() would refuse as invalid (not 4, 8 or 16; TRANSFER's
     * width is not looked at), is VRB_ERROR_INVALID_ARGUMENT. Absent (NULL, or past the
     * table of a 1.2 module): the host learns it by running, from VRB_ERROR_UNSUPPORTED.
     */
    vrb_status (*op_supported)(vrb_device *device, uint32_t op_kind, uint32_t element_bytes, uint32_t memory_kind,
                               uint32_t *out);

    /*
     * Since 1.4, optional, all seven or none (docs/plugin-abi.md): external timeline
     * semaphores; ownership of each fd is stated above "the module's table".
     * semaphore_create_exportable: a timeline semaphore at value 0 that semaphore_export
     * can hand out as `handle_type` (VRB_EXTERNAL_OPAQUE_FD); VRB_ERROR_UNSUPPORTED,
     * with what the driver answered, where it cannot. A module whose API exports no
     * semaphore (CUDA, HIP) sets the slot and answers VRB_ERROR_UNSUPPORTED saying so,
     * and still imports.
     */
    vrb_status (*semaphore_create_exportable)(vrb_device *device, uint32_t handle_type, vrb_semaphore **out);
    /* The host sets out->struct_size (at least that of 1.2's handle). VRB_ERROR_UNSUPPORTED
     * for a semaphore that was imported. */
    vrb_status (*semaphore_export)(vrb_semaphore *semaphore, vrb_external_handle *out);
    vrb_status (*semaphore_import)(vrb_device *device, const vrb_external_handle *handle, vrb_semaphore **out);
    void (*semaphore_free)(vrb_semaphore *semaphore);
    /* Enqueues on `device`, after all work the device was given before, the setting of
     * `semaphore` (created or imported on this device) to `value`; returns without
     * waiting. `value` is above every value signalled to that counter before. */
    vrb_status (*semaphore_signal)(vrb_device *device, vrb_semaphore *semaphore, uint64_t value);
    /* Enqueues on `device` a wait until `semaphore` reaches `value`: no work the device is
     * given after this call (run, a transfer, a signal) starts before it. Returns without
     * waiting. A wait may come before the signal it waits for; the host makes sure that
     * signal comes. */
    vrb_status (*semaphore_device_wait)(vrb_device *device, vrb_semaphore *semaphore, uint64_t value);
    /* Blocks the calling thread until the semaphore reaches `value`, or answers
     * VRB_ERROR_DEVICE naming the value it holds once timeout_ns have passed. */
    vrb_status (*semaphore_host_wait)(vrb_semaphore *semaphore, uint64_t value, uint64_t timeout_ns);

    /*
     * Since 1.5, optional: what `device` can do with the memory of `peer`, another device
     * this module opened, as VRB_PEER_* bits in *out (0: nothing). With VRB_PEER_COPY,
     * run() on `device` accepts a TRANSFER whose operands are buffers of `device` and
     * `peer` (either way round, and both ways at once); with VRB_PEER_ACCESS, its READ and
     * CHASE accept a src1 buffer of `peer`, read in place by `device`'s kernels. The module
     * does what the access needs (CUDA's cudaDeviceEnablePeerAccess) before answering.
     * VRB_PEER_THROUGH_HOST says its copies are staged through host memory (no direct
     * path between the two). Without a bit, run() refuses another device's buffer as
     * VRB_ERROR_INVALID_ARGUMENT. `device` == `peer` is VRB_ERROR_INVALID_ARGUMENT.
     */
    vrb_status (*peer_query)(vrb_device *device, vrb_device *peer, uint32_t *out);
} vrb_plugin_table;

/* Bits of peer_query's answer (since 1.5). */
typedef enum vrb_peer_flags {
    VRB_PEER_COPY = 1u << 0,
    VRB_PEER_ACCESS = 1u << 1,
    VRB_PEER_THROUGH_HOST = 1u << 2
} vrb_peer_flags;

/* In and out of the entry point. */
typedef struct vrb_negotiation {
    uint32_t struct_size;
    uint32_t host_version;   /* in: the newest version the host speaks */
    uint32_t module_version; /* out: the version the module will use, or its own when refusing */
    uint32_t reserved;
    const vrb_plugin_table *table; /* out: static, valid until unload */
    char message[256];             /* out: why, when the module refuses */
} vrb_negotiation;

typedef vrb_status (*vrb_plugin_entry_fn)(vrb_negotiation *negotiation);

#ifdef __cplusplus
}
#endif

#endif /* VRAMBENCH_PLUGIN_H */
