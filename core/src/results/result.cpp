#include <vrambench/core/results/result.hpp>

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
    case ProbeResult::Status::skipped: return "skipped";
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
    if (!r.telemetry.is_null()) j["telemetry"] = r.telemetry;
    if (!r.throttled.is_null()) j["throttled"] = r.throttled;
    if (!r.link.is_null()) j["link"] = r.link;
    if (r.link_efficiency) j["link_efficiency"] = *r.link_efficiency;
    if (!r.fabric.is_null()) j["fabric"] = r.fabric;
    if (r.fabric_efficiency) j["fabric_efficiency"] = *r.fabric_efficiency;
    return j;
}

ProbeResult result_from_json(const nlohmann::json &j)
{
    ProbeResult r;
    r.probe = j.at("probe").get<std::string>();
    r.backend = j.at("backend").get<std::string>();
    r.device = j.at("device").get<std::string>();
    r.parameters = j.at("parameters");
    r.metric = j.at("metric").get<std::string>();
    r.unit = j.at("unit").get<std::string>();
    r.estimator = j.at("estimator").get<std::string>();
    if (!j.at("value").is_null()) r.value = j["value"].get<double>();
    if (j.contains("bytes_per_run") && !j["bytes_per_run"].is_null())
        r.bytes_per_run = j["bytes_per_run"].get<uint64_t>();
    if (!j.at("byte_counting").is_null()) r.byte_counting = j["byte_counting"].get<std::string>();
    if (!j.at("timer").is_null()) r.timer = j["timer"].get<std::string>();
    r.seconds = j.at("seconds").get<std::vector<double>>();
    r.samples = j.at("samples").get<std::vector<double>>();
    if (const auto &s = j.at("statistics"); !s.is_null()) {
        Statistics st;
        st.count = s.at("count").get<std::size_t>();
        st.min = s.at("min").get<double>();
        st.median = s.at("median").get<double>();
        st.mean = s.at("mean").get<double>();
        st.max = s.at("max").get<double>();
        st.stddev = s.at("stddev").get<double>();
        st.cv = s.at("cv").get<double>();
        r.statistics = st;
    }
    if (j.contains("efficiency") && !j["efficiency"].is_null()) r.efficiency = j["efficiency"].get<double>();
    const std::string v = j.at("verification").at("status").get<std::string>();
    r.verification.status = v == "passed"   ? Verification::Status::passed
                            : v == "failed" ? Verification::Status::failed
                                            : Verification::Status::unverified;
    r.verification.detail = j["verification"].at("detail").get<std::string>();
    const std::string st = j.at("status").get<std::string>();
    for (auto candidate :
         {ProbeResult::Status::ok, ProbeResult::Status::suspect, ProbeResult::Status::failed,
          ProbeResult::Status::verification_failed, ProbeResult::Status::waived, ProbeResult::Status::skipped})
        if (to_string(candidate) == st) r.status = candidate;
    if (!j.at("error").is_null()) r.error = j["error"].get<std::string>();
    if (j.contains("extra")) r.extra = j["extra"];
    if (j.contains("telemetry")) r.telemetry = j["telemetry"];
    if (j.contains("throttled")) r.throttled = j["throttled"];
    if (j.contains("link")) r.link = j["link"];
    if (j.contains("link_efficiency") && j["link_efficiency"].is_number())
        r.link_efficiency = j["link_efficiency"].get<double>();
    if (j.contains("fabric")) r.fabric = j["fabric"];
    if (j.contains("fabric_efficiency") && j["fabric_efficiency"].is_number())
        r.fabric_efficiency = j["fabric_efficiency"].get<double>();
    return r;
}

} // namespace vrb
