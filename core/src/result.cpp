#include <vrambench/core/result.hpp>

namespace vrb {

std::string_view to_string(Verification::Status status)
{
    switch (status) {
    case Verification::Status::passed: return "passed";
    case Verification::Status::failed: return "failed";
    case Verification::Status::unverified: return "unverified";
    }
    return "unverified";
}

std::string_view to_string(ProbeResult::Status status)
{
    switch (status) {
    case ProbeResult::Status::ok: return "ok";
    case ProbeResult::Status::suspect: return "suspect";
    case ProbeResult::Status::failed: return "failed";
    case ProbeResult::Status::verification_failed: return "verification-failed";
    case ProbeResult::Status::waived: return "waived";
    }
    return "failed";
}

nlohmann::json to_json(const Statistics &s)
{
    return {{"count", s.count}, {"min", s.min},       {"median", s.median}, {"mean", s.mean},
            {"max", s.max},     {"stddev", s.stddev}, {"cv", s.cv}};
}

nlohmann::json to_json(const ProbeResult &r)
{
    auto nullable = [](const auto &optional) -> nlohmann::json {
        return optional ? nlohmann::json(*optional) : nlohmann::json(nullptr);
    };
    nlohmann::json j = {
        {"probe", r.probe},
        {"backend", r.backend},
        {"device", r.device},
        {"parameters", r.parameters},
        {"metric", r.metric},
        {"unit", r.unit},
        {"estimator", r.estimator},
        {"value", nullable(r.value)},
        {"bytes_per_run", nullable(r.bytes_per_run)},
        {"byte_counting", nullable(r.byte_counting)},
        {"timer", nullable(r.timer)},
        {"seconds", r.seconds},
        {"samples", r.samples},
        {"statistics", r.statistics ? to_json(*r.statistics) : nlohmann::json(nullptr)},
        {"efficiency", nullable(r.efficiency)},
        {"verification", {{"status", to_string(r.verification.status)}, {"detail", r.verification.detail}}},
        {"status", to_string(r.status)},
        {"error", nullable(r.error)},
    };
    if (!r.extra.is_null()) j["extra"] = r.extra;
    return j;
}

} // namespace vrb
