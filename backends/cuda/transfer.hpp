// TRANSFER: the runtime's copy engine between any two buffers of a device, or of the
// device and a peer (peer.cpp), one direction or two at once.
#pragma once

#include "backend.hpp"

namespace vrb::gpu {

// Returns what timed the runs: the device's events, or the host's clock when both ends
// of a copy are host memory and the device takes no part in it.
// Each run copies `passes` times over. `flags` gains VRB_OUTPUT_SEQUENTIAL when two
// directions were asked for at once but the runtime made them one after the other.
vrb_timer_kind run_transfer(vrb_device &device, const vrb_operation &op, uint32_t passes, uint32_t repetitions,
                            double *seconds, uint32_t &flags);

// Whether the runtime makes a transfer's two copies one after the other: a copy from or
// to pageable host memory returns only once the host's side of it is done (the runtime
// stages it through its own pinned buffers on the calling thread), so the second copy
// is enqueued only after the first has been carried out, whatever the streams.
bool runs_sequentially(const vrb_operation &op);

} // namespace vrb::gpu
