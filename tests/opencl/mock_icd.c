/*
 * A tiny OpenCL driver for the ICD loader (ocl-icd), built once per fault it plays:
 *   MOCK_ICD_NO_DEVICE      one platform that offers no device
 *   MOCK_ICD_BAD_COMPILER   one GPU whose compiler refuses every program, with a log
 *   MOCK_ICD_AMD_TOPOLOGY   that GPU as ROCm describes an MI300X: its PCI place only through
 *                           cl_amd_device_attribute_query (topology, PCIe device id)
 *   MOCK_ICD_NV_BUS_SLOT    that GPU as NVIDIA's driver describes an H200: bus, slot and
 *                           domain only through cl_nv_device_attribute_query
 *   MOCK_ICD_NV_VERBOSE     a GPU whose compiler, as NVIDIA's does with -cl-nv-verbose
 *                           (cl_nv_compiler_options), logs each kernel's registers; it
 *                           builds nothing without that option, and allocates nothing
 * The tests list it in a folder named by OCL_ICD_VENDORS. Every object starts with the
 * loader's dispatch table, as cl_khr_icd requires; calls the backend makes that this
 * driver does not serve answer CL_INVALID_OPERATION.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_icd.h>

#include <string.h>

#define EXPORT __attribute__((visibility("default")))

struct _cl_platform_id {
    struct _cl_icd_dispatch *dispatch;
};
struct _cl_device_id {
    struct _cl_icd_dispatch *dispatch;
};
struct _cl_context {
    struct _cl_icd_dispatch *dispatch;
};
struct _cl_command_queue {
    struct _cl_icd_dispatch *dispatch;
};
struct _cl_program {
    struct _cl_icd_dispatch *dispatch;
};

static struct _cl_icd_dispatch dispatch;
static struct _cl_platform_id platform = {&dispatch};
#ifndef MOCK_ICD_NO_DEVICE
static struct _cl_device_id device = {&dispatch};
#endif
static struct _cl_context context = {&dispatch};
static struct _cl_command_queue queue = {&dispatch};
static struct _cl_program program = {&dispatch};

#if defined(MOCK_ICD_AMD_TOPOLOGY)
static const char device_name[] = "Mock MI300X";
static const char device_extensions[] = "cl_amd_device_attribute_query";
#elif defined(MOCK_ICD_NV_BUS_SLOT)
static const char device_name[] = "Mock H200";
static const char device_extensions[] = "cl_nv_device_attribute_query";
#elif defined(MOCK_ICD_NV_VERBOSE)
static const char device_name[] = "Mock H200";
static const char device_extensions[] = "cl_nv_compiler_options";
#else
static const char device_name[] = "Mock GPU";
static const char device_extensions[] = "";
#endif

/* The vendors' queries, as their extensions number them. */
#define MOCK_DEVICE_PCI_BUS_ID_NV 0x4008
#define MOCK_DEVICE_PCI_SLOT_ID_NV 0x4009
#define MOCK_DEVICE_PCI_DOMAIN_ID_NV 0x400A
#define MOCK_DEVICE_TOPOLOGY_AMD 0x4037
#define MOCK_DEVICE_PCIE_ID_AMD 0x4034

#ifdef MOCK_ICD_NV_VERBOSE
/* ptxas 13.0's --verbose lines for two of the backend's kernels at sm_90. */
static const char build_log[] = "ptxas info    : 0 bytes gmem\n"
                                "ptxas info    : Compiling entry function 'read_w4' for 'sm_90'\n"
                                "ptxas info    : Function properties for read_w4\n"
                                "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                                "ptxas info    : Used 48 registers, used 1 barriers, 2048 bytes smem\n"
                                "ptxas info    : Compiling entry function 'copy_w1' for 'sm_90'\n"
                                "ptxas info    : Function properties for copy_w1\n"
                                "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                                "ptxas info    : Used 30 registers, used 0 barriers\n";
#else
static const char build_log[] = "mock.cl:1:1: error: this driver compiles nothing";
#endif

static cl_int answer(const void *value, size_t size, size_t room, void *out, size_t *size_out)
{
    if (size_out) *size_out = size;
    if (out) {
        if (room < size) return CL_INVALID_VALUE;
        memcpy(out, value, size);
    }
    return CL_SUCCESS;
}

static cl_int text(const char *value, size_t room, void *out, size_t *size_out)
{
    return answer(value, strlen(value) + 1, room, out, size_out);
}

static cl_int CL_API_CALL get_platform_info(cl_platform_id p, cl_platform_info param, size_t room, void *out,
                                            size_t *size_out)
{
    (void)p;
    switch (param) {
    case CL_PLATFORM_NAME:
#ifdef MOCK_ICD_NO_DEVICE
        return text("Mock platform without devices", room, out, size_out);
#else
        return text("Mock platform with a failing compiler", room, out, size_out);
#endif
    case CL_PLATFORM_VENDOR: return text("vrambench tests", room, out, size_out);
    case CL_PLATFORM_VERSION: return text("OpenCL 3.0 mock", room, out, size_out);
    case CL_PLATFORM_PROFILE: return text("FULL_PROFILE", room, out, size_out);
    case CL_PLATFORM_EXTENSIONS: return text("cl_khr_icd", room, out, size_out);
    case CL_PLATFORM_ICD_SUFFIX_KHR: return text("MOCK", room, out, size_out);
    default: return CL_INVALID_VALUE;
    }
}

static cl_int CL_API_CALL get_device_ids(cl_platform_id p, cl_device_type type, cl_uint room, cl_device_id *out,
                                         cl_uint *count)
{
    (void)p;
    (void)type;
#ifdef MOCK_ICD_NO_DEVICE
    (void)room;
    (void)out;
    if (count) *count = 0;
    return CL_DEVICE_NOT_FOUND;
#else
    if (count) *count = 1;
    if (out && room > 0) out[0] = &device;
    return CL_SUCCESS;
#endif
}

static cl_int CL_API_CALL get_device_info(cl_device_id d, cl_device_info param, size_t room, void *out,
                                          size_t *size_out)
{
    (void)d;
    const cl_ulong memory = (cl_ulong)1 << 30;
    const cl_uint units = 4, clock = 1000, line = 64;
    const cl_device_svm_capabilities svm = 0;
    const size_t group = 256, resolution = 1;
    const cl_device_type type = CL_DEVICE_TYPE_GPU;
    const cl_bool no = CL_FALSE;
    const cl_device_mem_cache_type cache = CL_READ_WRITE_CACHE;
    switch (param) {
    case CL_DEVICE_NAME: return text(device_name, room, out, size_out);
    case CL_DEVICE_VENDOR: return text("vrambench tests", room, out, size_out);
    case CL_DEVICE_VERSION: return text("OpenCL 3.0 mock", room, out, size_out);
    case CL_DRIVER_VERSION: return text("0.1", room, out, size_out);
    case CL_DEVICE_OPENCL_C_VERSION: return text("OpenCL C 1.2", room, out, size_out);
    case CL_DEVICE_EXTENSIONS: return text(device_extensions, room, out, size_out);
    case CL_DEVICE_TYPE: return answer(&type, sizeof type, room, out, size_out);
    case CL_DEVICE_GLOBAL_MEM_SIZE:
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    case CL_DEVICE_LOCAL_MEM_SIZE: return answer(&memory, sizeof memory, room, out, size_out);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return answer(&line, sizeof line, room, out, size_out);
    case CL_DEVICE_MAX_COMPUTE_UNITS: return answer(&units, sizeof units, room, out, size_out);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: return answer(&clock, sizeof clock, room, out, size_out);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: return answer(&group, sizeof group, room, out, size_out);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: return answer(&resolution, sizeof resolution, room, out, size_out);
    case CL_DEVICE_HOST_UNIFIED_MEMORY: return answer(&no, sizeof no, room, out, size_out);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: return answer(&cache, sizeof cache, room, out, size_out);
    case CL_DEVICE_SVM_CAPABILITIES: return answer(&svm, sizeof svm, room, out, size_out);
#if defined(MOCK_ICD_AMD_TOPOLOGY)
    case CL_DEVICE_VENDOR_ID: {
        const cl_uint amd = 0x1002;
        return answer(&amd, sizeof amd, room, out, size_out);
    }
    case MOCK_DEVICE_PCIE_ID_AMD: {
        const cl_uint mi300x = 0x74a1;
        return answer(&mi300x, sizeof mi300x, room, out, size_out);
    }
    case MOCK_DEVICE_TOPOLOGY_AMD: {
        /* type 1 (PCIe), 17 unused bytes, bus 0xc1 (past 0x7f: a signed char would turn
         * it negative), device 0, function 0 */
        unsigned char topology[24] = {1};
        topology[21] = 0xc1;
        return answer(topology, sizeof topology, room, out, size_out);
    }
#elif defined(MOCK_ICD_NV_BUS_SLOT)
    case CL_DEVICE_VENDOR_ID: {
        const cl_uint nvidia = 0x10de;
        return answer(&nvidia, sizeof nvidia, room, out, size_out);
    }
    case MOCK_DEVICE_PCI_BUS_ID_NV: {
        const cl_uint bus = 0x9a;
        return answer(&bus, sizeof bus, room, out, size_out);
    }
    case MOCK_DEVICE_PCI_SLOT_ID_NV: {
        const cl_uint slot = (0x1c << 3) | 1; /* device 0x1c, function 1 */
        return answer(&slot, sizeof slot, room, out, size_out);
    }
    case MOCK_DEVICE_PCI_DOMAIN_ID_NV: {
        const cl_uint domain = 2;
        return answer(&domain, sizeof domain, room, out, size_out);
    }
#endif
    default: return CL_INVALID_VALUE;
    }
}

static cl_context CL_API_CALL create_context(const cl_context_properties *properties, cl_uint count,
                                             const cl_device_id *devices,
                                             void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                                             void *user, cl_int *status)
{
    (void)properties;
    (void)count;
    (void)devices;
    (void)notify;
    (void)user;
    if (status) *status = CL_SUCCESS;
    return &context;
}

static cl_command_queue CL_API_CALL create_queue(cl_context c, cl_device_id d, const cl_queue_properties *properties,
                                                 cl_int *status)
{
    (void)c;
    (void)d;
    (void)properties;
    if (status) *status = CL_SUCCESS;
    return &queue;
}

static cl_program CL_API_CALL create_program(cl_context c, cl_uint count, const char **sources, const size_t *lengths,
                                             cl_int *status)
{
    (void)c;
    (void)count;
    (void)sources;
    (void)lengths;
    if (status) *status = CL_SUCCESS;
    return &program;
}

static cl_int CL_API_CALL build_program(cl_program p, cl_uint count, const cl_device_id *devices, const char *options,
                                        void(CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    (void)p;
    (void)count;
    (void)devices;
    (void)notify;
    (void)user;
#ifdef MOCK_ICD_NV_VERBOSE
    return options && strstr(options, "-cl-nv-verbose") ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
#else
    (void)options;
    return CL_BUILD_PROGRAM_FAILURE;
#endif
}

static cl_int CL_API_CALL program_build_info(cl_program p, cl_device_id d, cl_program_build_info param, size_t room,
                                             void *out, size_t *size_out)
{
    (void)p;
    (void)d;
    if (param != CL_PROGRAM_BUILD_LOG) return CL_INVALID_VALUE;
    return text(build_log, room, out, size_out);
}

static cl_mem CL_API_CALL create_buffer(cl_context c, cl_mem_flags flags, size_t size, void *host, cl_int *status)
{
    (void)c;
    (void)flags;
    (void)size;
    (void)host;
    if (status) *status = CL_INVALID_OPERATION;
    return NULL;
}

static cl_int CL_API_CALL release_context(cl_context c)
{
    (void)c;
    return CL_SUCCESS;
}
static cl_int CL_API_CALL release_queue(cl_command_queue q)
{
    (void)q;
    return CL_SUCCESS;
}
static cl_int CL_API_CALL release_program(cl_program p)
{
    (void)p;
    return CL_SUCCESS;
}
static cl_int CL_API_CALL retain_context(cl_context c)
{
    (void)c;
    return CL_SUCCESS;
}

static cl_int CL_API_CALL get_platform_ids(cl_uint room, cl_platform_id *out, cl_uint *count)
{
    if (count) *count = 1;
    if (out && room > 0) out[0] = &platform;
    return CL_SUCCESS;
}

static void fill_dispatch(void)
{
    dispatch.clGetPlatformIDs = get_platform_ids;
    dispatch.clGetPlatformInfo = get_platform_info;
    dispatch.clGetDeviceIDs = get_device_ids;
    dispatch.clGetDeviceInfo = get_device_info;
    dispatch.clCreateContext = create_context;
    dispatch.clRetainContext = retain_context;
    dispatch.clReleaseContext = release_context;
    dispatch.clCreateCommandQueueWithProperties = create_queue;
    dispatch.clReleaseCommandQueue = release_queue;
    dispatch.clCreateProgramWithSource = create_program;
    dispatch.clBuildProgram = build_program;
    dispatch.clGetProgramBuildInfo = program_build_info;
    dispatch.clReleaseProgram = release_program;
    dispatch.clCreateBuffer = create_buffer;
}

EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint room, cl_platform_id *out, cl_uint *count)
{
    fill_dispatch();
    return get_platform_ids(room, out, count);
}

EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    if (strcmp(name, "clIcdGetPlatformIDsKHR") == 0) return (void *)clIcdGetPlatformIDsKHR;
    return NULL;
}

EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info param, size_t room, void *out,
                                            size_t *size_out)
{
    return get_platform_info(p, param, room, out, size_out);
}
