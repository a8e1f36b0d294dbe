// Turns a runtime error into the backend's failure, with the runtime's own words.
//
// A driver that answers "not supported" (a vGPU, a MIG instance or confidential computing
// refusing exportable memory, a runtime without timeline semaphores) has said what this
// card cannot do, not that the card failed: that is VRB_ERROR_UNSUPPORTED, which the
// probes report as skipped with these words.
#include "gpu_runtime.hpp"

#include <vrambench/plugin_support.hpp>

#include <string>

namespace vrb::gpu {

std::string describe_error(Error error)
{
    const char *text = error_string(error);
    const char *name = error_name(error);
    std::string message = text ? text : "unknown error";
    // HIP 5 answers hipGetErrorString with the enumerator's name: give the common ones
    // words, and say the name once.
    if (name && message == name) {
        if (const char *words = plain_words(error)) message = words;
    }
    if (name && message != name) message += std::string(" (") + name + ")";
    return message;
}

void raise_error(Error error, const char *what)
{
    // Most errors also linger as the thread's "last error"; clear it so the next call
    // does not report this one again.
    (void)take_last_error();
    vrb_status status = VRB_ERROR_DEVICE;
    if (is_out_of_memory(error))
        status = VRB_ERROR_OUT_OF_MEMORY;
    else if (is_unavailable(error))
        status = VRB_ERROR_UNAVAILABLE;
    else if (is_unsupported(error))
        status = VRB_ERROR_UNSUPPORTED;
    plugin::fail(status, std::string(kApiName) + " error in " + what + ": " + describe_error(error));
}

} // namespace vrb::gpu
