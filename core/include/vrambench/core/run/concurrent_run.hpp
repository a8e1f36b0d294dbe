// `run --concurrent`: one worker per device, all started together, so each card is
// measured while its neighbours are busy. Every result records the devices whose
// workers were running at some moment while it was measured: a card that finished
// early leaves the later figures of the others measured alone.
#pragma once

#include <vrambench/core/run/worker.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace vrb {

// Which devices overlapped which stretch of time. A unit's stretches are cut at its
// boundaries (its device description, each result); another unit overlaps a stretch
// when it was still running at its start.
class OverlapLog {
  public:
    using Clock = std::chrono::steady_clock;
    OverlapLog(std::vector<std::string> ids, Clock::time_point start);
    // The others that ran at some moment since unit i's previous boundary (or the
    // start), in the order of the units; `now` becomes unit i's latest boundary.
    std::vector<std::string> boundary(std::size_t i, Clock::time_point now);
    // Unit i's worker has ended at `now`.
    void ended(std::size_t i, Clock::time_point now);

  private:
    struct Entry {
        std::string id;
        Clock::time_point since;
        bool running = true;
        Clock::time_point end;
    };
    std::vector<Entry> entries_;
};

class ConcurrentRun {
  public:
    struct Unit {
        std::string backend;
        uint32_t index = 0;
        std::string id; // "cuda:1"
        // What the worker sent, in order; each result with its "ran_alongside".
        std::vector<nlohmann::json> devices, results;
        WorkerOutcome outcome;
    };
    // Runs one unit's worker, calling on_frame for each frame; called from the unit's own thread.
    using Start = std::function<WorkerOutcome(const Unit &, const std::function<void(const Frame &)> &on_frame)>;
    // Sees every frame of every unit (a result already with its "ran_alongside"), one at a time.
    using Shared = std::function<void(const Frame &)>;

    // The devices of each backend, as the run planned them.
    explicit ConcurrentRun(const std::vector<std::pair<std::string, std::vector<uint32_t>>> &targets);
    std::vector<std::string> device_ids() const;
    // Starts every unit's worker in a thread of its own and returns when all have ended.
    // A worker that cannot be started is recorded as such, never thrown.
    void start(const Start &start, const Shared &shared);
    const std::vector<Unit> &units() const { return units_; }

  private:
    std::vector<Unit> units_;
};

} // namespace vrb
