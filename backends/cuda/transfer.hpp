// TRANSFER: the runtime's copy engine between any two buffers of a device, or of the
// device and a peer (peer.cpp), one direction or two at once.
#pragma once

#include "backend.hpp"

namespace vrb::gpu {

// Returns what timed the runs: the device's events, or the host's clock when both ends
// of a copy are host memory and the device takes no part in it.
// Each run copies `passes` times over.
vrb_timer_kind run_transfer(vrb_device &device, const vrb_operation &op, uint32_t passes, uint32_t repetitions,
                            double *seconds);

} // namespace vrb::gpu
