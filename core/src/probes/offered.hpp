// What a backend says it offers, asked before an operation is run: a combination it
// declines is waived with the reason, not run to learn VRB_ERROR_UNSUPPORTED.
#pragma once

#include <vrambench/core/probes/probe.hpp>

#include <cstdint>
#include <string>

namespace vrb {

// "the backend does not offer copy at 8 bytes on pageable"
std::string not_offered_reason(std::string_view op, uint32_t element_bytes, std::string_view kind);

// False, with `r` waived and its reason set, when the backend's capability query says
// it does not run `op_kind` at `element_bytes` on memory kind `kind`. True when it
// does, when the backend has no such query, or when the query itself failed: then
// running the operation is how to find out.
bool offered(const ProbeContext &ctx, ProbeResult &r, uint32_t op_kind, uint32_t element_bytes, uint32_t kind);

} // namespace vrb
