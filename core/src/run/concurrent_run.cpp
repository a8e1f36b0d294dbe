#include <vrambench/core/run/concurrent_run.hpp>

#include <fmt/format.h>

#include <thread>

namespace vrb {

OverlapLog::OverlapLog(std::vector<std::string> ids, Clock::time_point start)
{
    for (auto &id : ids)
        entries_.push_back({std::move(id), start, true, start});
}

std::vector<std::string> OverlapLog::boundary(std::size_t i, Clock::time_point now)
{
    std::vector<std::string> alongside;
    const Clock::time_point since = entries_.at(i).since;
    for (std::size_t j = 0; j < entries_.size(); ++j)
        if (j != i && (entries_[j].running || entries_[j].end > since)) alongside.push_back(entries_[j].id);
    entries_[i].since = now;
    return alongside;
}

void OverlapLog::ended(std::size_t i, Clock::time_point now)
{
    entries_.at(i).running = false;
    entries_[i].end = now;
}

ConcurrentRun::ConcurrentRun(const std::vector<std::pair<std::string, std::vector<uint32_t>>> &targets)
{
    for (const auto &[backend, indices] : targets)
        for (const uint32_t index : indices)
            units_.push_back({backend, index, fmt::format("{}:{}", backend, index), {}, {}, {}});
}

std::vector<std::string> ConcurrentRun::device_ids() const
{
    std::vector<std::string> ids;
    for (const auto &u : units_)
        ids.push_back(u.id);
    return ids;
}

void ConcurrentRun::start(const Start &start, const Shared &shared)
{
    std::mutex lock;
    OverlapLog log(device_ids(), OverlapLog::Clock::now());
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < units_.size(); ++i)
        threads.emplace_back([&, i] {
            Unit &unit = units_[i];
            WorkerOutcome outcome;
            try {
                outcome = start(unit, [&](const Frame &frame) {
                    const std::lock_guard hold(lock);
                    if (frame.type == FrameType::device || frame.type == FrameType::result) {
                        auto alongside = log.boundary(i, OverlapLog::Clock::now());
                        if (frame.type == FrameType::device) {
                            unit.devices.push_back(frame.payload);
                        } else {
                            Frame recorded = frame;
                            recorded.payload["ran_alongside"] = std::move(alongside);
                            unit.results.push_back(recorded.payload);
                            shared(recorded);
                            return;
                        }
                    }
                    shared(frame);
                });
            } catch (const std::exception &e) {
                outcome.kind = WorkerOutcome::Kind::exited;
                outcome.detail = fmt::format("the worker could not be started: {}", e.what());
            }
            const std::lock_guard hold(lock);
            unit.outcome = outcome;
            log.ended(i, OverlapLog::Clock::now());
        });
    threads.clear(); // joins them all
}

} // namespace vrb
