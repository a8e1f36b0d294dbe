#include <vrambench/core/run/worker_protocol.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace vrb {

namespace {

constexpr char magic[4] = {'V', 'R', 'B', 'W'};
constexpr std::size_t header_size = 12;

void put_u16(std::string &out, uint16_t v)
{
    out.push_back(static_cast<char>(v & 0xff));
    out.push_back(static_cast<char>(v >> 8));
}

void put_u32(std::string &out, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint32_t get_u(const std::string &in, std::size_t at, int bytes)
{
    uint32_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v |= static_cast<uint32_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
    return v;
}

} // namespace

std::string encode_frame(const Frame &frame)
{
    const std::string payload = frame.payload.dump();
    std::string out(magic, sizeof magic);
    put_u16(out, worker_protocol_version);
    put_u16(out, static_cast<uint16_t>(frame.type));
    put_u32(out, static_cast<uint32_t>(payload.size()));
    return out + payload;
}

std::optional<Frame> FrameDecoder::next()
{
    if (buffer_.size() < header_size) {
        // Reject garbage as soon as it cannot be the start of a frame.
        if (buffer_.compare(0, buffer_.size(), magic, std::min(buffer_.size(), sizeof magic)) != 0)
            throw ProtocolError("the worker wrote bytes that are not a frame");
        return std::nullopt;
    }
    if (buffer_.compare(0, sizeof magic, magic, sizeof magic) != 0)
        throw ProtocolError("the worker wrote bytes that are not a frame");
    const uint32_t version = get_u(buffer_, 4, 2), type = get_u(buffer_, 6, 2), length = get_u(buffer_, 8, 4);
    if (version != worker_protocol_version)
        throw ProtocolError(
            fmt::format("the worker speaks protocol {}, the parent {}", version, worker_protocol_version));
    if (type < 1 || type > 5) throw ProtocolError(fmt::format("unknown frame type {}", type));
    if (length > worker_max_payload) throw ProtocolError(fmt::format("a frame of {} bytes is too large", length));
    if (buffer_.size() < header_size + length) return std::nullopt;
    Frame frame;
    frame.type = static_cast<FrameType>(type);
    try {
        frame.payload = nlohmann::json::parse(buffer_.begin() + header_size, buffer_.begin() + header_size + length);
    } catch (const nlohmann::json::exception &e) {
        throw ProtocolError(std::string("a frame's payload is not JSON: ") + e.what());
    }
    buffer_.erase(0, header_size + length);
    return frame;
}

bool write_frame(int fd, const Frame &frame)
{
    const std::string bytes = encode_frame(frame);
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace vrb
