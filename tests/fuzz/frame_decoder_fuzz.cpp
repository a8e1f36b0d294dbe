// Any bytes from a worker: decoded into frames or refused as a protocol error.
#include <vrambench/core/run/worker_protocol.hpp>

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vrb::FrameDecoder decoder;
    // Fed in two pieces, as a pipe may deliver them.
    const size_t half = size / 2;
    try {
        decoder.feed(reinterpret_cast<const char *>(data), half);
        while (decoder.next()) {
        }
        decoder.feed(reinterpret_cast<const char *>(data) + half, size - half);
        while (decoder.next()) {
        }
    } catch (const vrb::ProtocolError &) {
    }
    return 0;
}
