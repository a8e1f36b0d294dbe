#include "offered.hpp"

#include <vrambench/core/measurement/traffic.hpp>
#include <vrambench/core/modules/backend.hpp>
#include <vrambench/core/modules/module_text.hpp>

#include <fmt/format.h>

namespace vrb {

std::string not_offered_reason(std::string_view op, uint32_t element_bytes, std::string_view kind)
{
    return fmt::format("the backend does not offer {} at {} bytes on {}", op, element_bytes, kind);
}

bool offered(const ProbeContext &ctx, ProbeResult &r, uint32_t op_kind, uint32_t element_bytes, uint32_t kind)
{
    std::optional<bool> answer;
    try {
        answer = ctx.device.supports(op_kind, element_bytes, kind);
    } catch (const BrokenModuleError &) {
        throw; // an answer that is neither yes nor no is no permission to run
    } catch (const Error &) {
        // A module whose query failed is asked by running, as one without the slot is.
        return true;
    }
    if (!answer || *answer) return true;
    const std::string kind_name =
        kind < ctx.record.kinds.size() ? module_string(ctx.record.kinds[kind].name) : fmt::format("kind {}", kind);
    r.status = ProbeResult::Status::waived;
    r.error = not_offered_reason(op_name(op_kind), element_bytes, kind_name);
    r.verification = {Verification::Status::unverified, "not run"};
    return false;
}

} // namespace vrb
