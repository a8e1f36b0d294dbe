// The framed protocol between `vrambench run` and its worker processes.
//
// A worker streams frames on a pipe of its own (never stdout: a plugin's prints go to
// stderr and cannot corrupt it). A frame is
//   "VRBW" | protocol version (u16) | type (u16) | payload length (u32) | payload
// with integers little-endian and the payload one JSON document. Anything else (bad
// magic, another version, an oversized or unparsable payload) is a protocol error, and
// the parent stops that worker.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace vrb {

inline constexpr uint16_t worker_protocol_version = 1;
inline constexpr uint32_t worker_max_payload = 64u << 20;

enum class FrameType : uint16_t {
    backend = 1,  // the module's entry: name, state, reason, devices
    device = 2,   // a device's description, before its results
    result = 3,   // one finished result
    progress = 4, // what runs now: also the heartbeat the timeout watches
    done = 5,     // the worker finished; payload: its exit code
};

struct Frame {
    FrameType type{};
    nlohmann::json payload;
};

std::string encode_frame(const Frame &frame);

// Incremental decoding of a byte stream into frames.
class FrameDecoder {
  public:
    void feed(const char *data, std::size_t size) { buffer_.append(data, size); }
    // The next complete frame, or nothing when more bytes are needed. Throws
    // ProtocolError on bytes that cannot be a frame.
    std::optional<Frame> next();
    bool empty() const { return buffer_.empty(); }

  private:
    std::string buffer_;
};

struct ProtocolError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Writes a whole frame to a file descriptor; false when the reader is gone.
bool write_frame(int fd, const Frame &frame);

} // namespace vrb
