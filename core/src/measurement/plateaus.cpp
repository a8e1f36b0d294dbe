#include <vrambench/core/measurement/plateaus.hpp>
#include <vrambench/core/modules/module_text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace vrb {

namespace {

// Sum and sum of squares over prefixes, for the squared error of any run of points.
struct Prefix {
    std::vector<double> sum{0}, squares{0};
    explicit Prefix(const std::vector<double> &v)
    {
        for (double x : v) {
            sum.push_back(sum.back() + x);
            squares.push_back(squares.back() + x * x);
        }
    }
    // Squared error of points [i, j) around their mean.
    double error(std::size_t i, std::size_t j) const
    {
        const double n = static_cast<double>(j - i), s = sum[j] - sum[i];
        return std::max(0.0, squares[j] - squares[i] - s * s / n);
    }
    double mean(std::size_t i, std::size_t j) const { return (sum[j] - sum[i]) / static_cast<double>(j - i); }
};

// The curve's noise from point-to-point differences: their median is untouched by the
// few big steps that are the signal.
double noise(const std::vector<double> &v)
{
    std::vector<double> d;
    for (std::size_t i = 1; i < v.size(); ++i)
        d.push_back(std::abs(v[i] - v[i - 1]));
    std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2), d.end());
    return 1.4826 * d[d.size() / 2] / std::sqrt(2.0);
}

struct Segment {
    std::size_t first, last; // inclusive
    double level;            // mean of log figures
};

// The optimal partition into constant levels under a penalty per level.
std::vector<Segment> segment(const std::vector<double> &v, double penalty)
{
    const std::size_t n = v.size();
    const Prefix prefix(v);
    std::vector<double> best(n + 1, std::numeric_limits<double>::infinity());
    std::vector<std::size_t> start(n + 1, 0);
    best[0] = 0;
    for (std::size_t j = 1; j <= n; ++j)
        for (std::size_t i = 0; i < j; ++i) {
            const double cost = best[i] + prefix.error(i, j) + penalty;
            if (cost < best[j]) {
                best[j] = cost;
                start[j] = i;
            }
        }
    std::vector<Segment> out;
    for (std::size_t j = n; j > 0; j = start[j])
        out.push_back({start[j], j - 1, prefix.mean(start[j], j)});
    std::reverse(out.begin(), out.end());
    return out;
}

} // namespace

std::vector<Plateau> find_plateaus(std::span<const CurvePoint> curve, double min_step)
{
    if (curve.size() < 3) return {};
    std::vector<double> v;
    for (const CurvePoint &p : curve)
        v.push_back(std::log(std::max(p.y, std::numeric_limits<double>::min())));
    const double sigma = std::max(noise(v), 0.02);
    const double penalty = 3.0 * sigma * sigma * std::log(static_cast<double>(v.size()));
    std::vector<Segment> segments = segment(v, penalty);

    // A lone point is a transition between levels or an outlier: never a plateau.
    std::erase_if(segments, [](const Segment &s) { return s.first == s.last; });
    // Neighbours closer than min_step are one level, with whatever lay between them.
    const Prefix prefix(v);
    const double close = std::log1p(min_step);
    for (bool merged = true; merged;) {
        merged = false;
        for (std::size_t k = 0; k + 1 < segments.size(); ++k) {
            if (std::abs(segments[k].level - segments[k + 1].level) >= close) continue;
            segments[k].last = segments[k + 1].last;
            segments[k].level = prefix.mean(segments[k].first, segments[k].last + 1);
            segments.erase(segments.begin() + static_cast<std::ptrdiff_t>(k + 1));
            merged = true;
            break;
        }
    }

    std::vector<Plateau> out;
    for (std::size_t k = 0; k < segments.size(); ++k) {
        const Segment &s = segments[k];
        Plateau p;
        p.first = s.first;
        p.last = s.last;
        p.level = std::exp(s.level);
        p.starts_at = curve[s.first].x;
        p.ends_at = curve[s.last].x;
        if (k + 1 < segments.size()) {
            // Where the curve crosses halfway (in log) to the next level, interpolated
            // in log x; the geometric middle of the gap when noise hides the crossing.
            const std::size_t next = segments[k + 1].first;
            const double half = (s.level + segments[k + 1].level) / 2;
            p.ends_at = std::sqrt(curve[s.last].x * curve[next].x);
            for (std::size_t i = s.last; i < next; ++i) {
                const double a = v[i] - half, b = v[i + 1] - half;
                if ((a > 0) == (b > 0) && b != 0) continue;
                const double t = a / (a - b);
                p.ends_at = std::exp(std::log(curve[i].x) + t * (std::log(curve[i + 1].x) - std::log(curve[i].x)));
                break;
            }
        }
        out.push_back(p);
    }
    return out;
}

std::vector<CacheReach> cache_reach(const vrb_device_info &info, uint32_t threads)
{
    std::vector<CacheReach> out;
    const uint32_t units = (info.known & VRB_KNOWN_COMPUTE_UNITS) && info.compute_units ? info.compute_units : 1;
    for (uint32_t i = 0; i < info.cache_count && i < VRB_MAX_CACHES; ++i) {
        const vrb_cache_info &c = info.caches[i];
        if (module_text(c.kind) == "instruction" || c.bytes == 0) continue;
        CacheReach r{c.level, c.bytes, 1, 1};
        const uint64_t users = std::min(threads, units);
        r.socket_wide = c.bytes / std::max<uint64_t>(c.shared_by ? c.shared_by : units, 1) > most_visible_share;
        if (c.shared_by) {
            // Shared by s units: the threads spread over ceil(users / s) instances.
            r.fewest = r.most = std::max<uint64_t>(1, (users + c.shared_by - 1) / c.shared_by);
        } else {
            r.most = std::max<uint64_t>(1, users);
        }
        out.push_back(r);
    }
    std::sort(out.begin(), out.end(), [](const CacheReach &a, const CacheReach &b) { return a.level < b.level; });
    return out;
}

void name_plateaus(std::vector<Plateau> &plateaus, std::span<const CacheReach> caches, double largest_x,
                   double memory_factor, CurveFigure figure, double memory_side, bool settled,
                   std::span<const TlbReach> tlbs)
{
    constexpr double clear_step = 1.15;
    auto improved_on = [&](std::size_t k) {
        if (k + 1 >= plateaus.size()) return false;
        const double here = plateaus[k].level, next = plateaus[k + 1].level;
        return figure == CurveFigure::bandwidth ? next > here * clear_step
               : figure == CurveFigure::latency ? next * clear_step < here
                                                : false;
    };
    // How far, in log, plateau k's level ends from the bytes a cache level can hold; a
    // socket-wide level's reported bytes are no reach a curve ends near. A level ends
    // where the last of its TLB steps (below) ends.
    std::vector<uint32_t> tlb_step(plateaus.size(), 0);
    auto level_end = [&](std::size_t k) {
        while (k + 1 < plateaus.size() && tlb_step[k + 1])
            ++k;
        return plateaus[k].ends_at;
    };
    auto distance = [&](std::size_t k, const CacheReach &c) {
        if (c.socket_wide) return std::numeric_limits<double>::infinity();
        const double low = static_cast<double>(c.bytes * c.fewest), high = static_cast<double>(c.bytes * c.most);
        const double end = level_end(k);
        return end < low ? std::log(low / end) : end > high ? std::log(end / high) : 0.0;
    };
    std::size_t next_cache = 0; // levels are used in order, each once
    // The level not yet used whose reach plateau k's level ends nearest, within a factor
    // of 4, and how far; caches.size() when none lies that near.
    auto nearest = [&](std::size_t k) {
        std::pair<std::size_t, double> found{caches.size(), std::log(4.0) + 1e-9};
        for (std::size_t c = next_cache; c < caches.size(); ++c)
            if (const double d = distance(k, caches[c]); d < found.second) found = {c, d};
        return found;
    };
    double largest_cache = 0;
    for (const CacheReach &c : caches)
        if (!c.socket_wide) largest_cache = std::max(largest_cache, static_cast<double>(c.bytes));
    const bool socket_wide =
        std::any_of(caches.begin(), caches.end(), [](const CacheReach &c) { return c.socket_wide; });
    const bool past_the_caches =
        !plateaus.empty() && (largest_cache > 0 || socket_wide) && largest_x >= memory_factor * largest_cache;
    const bool reached_memory = past_the_caches || (settled && !plateaus.empty());

    // Where memory begins: the last plateau, or on a latency curve the first whose level
    // is within `memory_side` of the last's, past which TLB misses add their page walks.
    std::size_t memory = plateaus.size();
    if (reached_memory) {
        memory = plateaus.size() - 1;
        if (figure == CurveFigure::latency && !settled)
            while (memory > 0 && plateaus[memory - 1].level * memory_side >= plateaus.back().level)
                --memory;
    }

    // A latency step inside a cache level, where a data TLB's reach ends: past it most
    // loads pay a translation (a second-level TLB lookup, or a page walk). It lies between
    // 1/1.5 and 2.5 x the reach (a random chain's pages outgrow the TLB gradually, and the
    // program's own pages take entries too), costs less than doubling the latency (a miss
    // to the next cache costs more), and lies not within 1.5 x of any cache's reach (there
    // the cache is the cause). Each reach ends one step, the first past it. Such a plateau
    // is the level before it past that TLB, never a cache of its own. On a VM the
    // hypervisor's 4 KiB pages set the reach even where the guest has huge pages: every
    // page size's reach is tried.
    std::vector<bool> reach_used(tlbs.size(), false);
    if (figure == CurveFigure::latency)
        for (std::size_t k = 1; k < memory; ++k) {
            const double x = plateaus[k - 1].ends_at;
            if (improved_on(k - 1) || plateaus[k].level >= 2 * plateaus[k - 1].level) continue;
            const bool at_a_cache = std::any_of(caches.begin(), caches.end(), [&](const CacheReach &c) {
                return !c.socket_wide && x * 1.5 >= static_cast<double>(c.bytes * c.fewest) &&
                       x <= 1.5 * static_cast<double>(c.bytes * c.most);
            });
            if (at_a_cache) continue;
            for (std::size_t t = 0; t < tlbs.size(); ++t) {
                const auto reach = static_cast<double>(tlbs[t].bytes);
                if (reach_used[t] || x * 1.5 < reach || x > 2.5 * reach) continue;
                tlb_step[k] = tlbs[t].level;
                reach_used[t] = true;
                break;
            }
        }

    std::size_t levels = 0;                   // plateaus that are memory levels, counted for "cache N"
    std::size_t last_named = plateaus.size(); // the plateau the last level was named for
    for (std::size_t k = 0; k < plateaus.size(); ++k) {
        Plateau &p = plateaus[k];
        p.reported_bytes = 0;
        if (k >= memory) {
            // Numbered, so that each step keeps a name of its own where sets are compared.
            p.name = k == memory ? "memory" : fmt::format("TLB reach {}", k - memory);
            continue;
        }
        if (tlb_step[k]) continue; // named after the level it steps from, once that is named
        if (k + 1 < plateaus.size() && improved_on(k)) {
            // A cost per run bounds only the smallest working sets, whose runs are the
            // shortest; past a level, a stretch the next one improves on is a dip: the
            // device slowed for a while (a neighbour on its cores, a clock), or something
            // between two levels (a prefetcher, a replacement policy) costs more there.
            p.name = levels == 0 ? "overhead" : "dip";
            continue;
        }
        p.name = fmt::format("cache {}", ++levels);
        if (k + 1 == plateaus.size()) {
            if (!caches.empty() && next_cache == caches.size())
                // Past the last cache an earlier plateau was named for, but not far enough
                // past it to claim memory: say where it lies, not a level it may not be.
                p.name = fmt::format("past L{}", caches.back().level);
            break;
        }
        const auto [match, best] = nearest(k);
        if (match == caches.size()) continue;
        // A level belongs to the plateau that ends nearest its reach: a short stretch on
        // the way out of one level (the last level's lines partly still there) must not
        // take the next level's name from the plateau that is that level. Only a later
        // plateau whose own nearest level this is takes it: one nearer still to a deeper
        // level leaves this one to p.
        // A plateau on the way down to memory, within half again of memory's level and
        // nearer it than p's, is memory partly reached, not the level: it takes none
        // from p. (A GPU's L2 at twice its memory's bandwidth is still a level.)
        auto memory_like = [&](std::size_t j) {
            if (memory == plateaus.size()) return false;
            const double to_memory = std::abs(std::log(plateaus[j].level / plateaus[memory].level));
            return to_memory < std::log(1.5) && to_memory < std::abs(std::log(plateaus[j].level / p.level));
        };
        // Likewise a plateau on the way out to the next, within half again of its level and
        // nearer it than p's, is that next level partly reached (a random chain at most of a
        // cache's size already misses it often): it takes no level from p either.
        auto way_out = [&](std::size_t j) {
            const double to_next = std::abs(std::log(plateaus[j].level / plateaus[j + 1].level));
            return to_next < std::log(1.5) && to_next < std::abs(std::log(plateaus[j].level / p.level));
        };
        bool nearer_later = false;
        for (std::size_t j = k + 1; j < memory && j + 1 < plateaus.size() && !nearer_later; ++j)
            nearer_later = !tlb_step[j] && !improved_on(j) && !memory_like(j) && !way_out(j) &&
                           nearest(j).first == match && distance(j, caches[match]) < best;
        if (nearer_later) continue;
        // Earlier levels no plateau took, whose reach this one began inside: no step told
        // them apart, so the plateau is theirs as much as the level its end names.
        p.name.clear();
        for (std::size_t c = next_cache; c < match; ++c)
            if (p.starts_at > 0 && !caches[c].socket_wide &&
                2 * p.starts_at <= static_cast<double>(caches[c].bytes * caches[c].most))
                p.name += fmt::format("L{}+", caches[c].level);
        p.name += fmt::format("L{}", caches[match].level);
        next_cache = match + 1;
        last_named = k;
    }

    // The deepest level took no plateau by its reach, and the curve reached memory: the
    // level the curve saw last before memory is it (a socket's L3 of which a VM's cores
    // see a slice, or an L3 whose latency the TLB's reach ends before its size does).
    if (memory != plateaus.size() && !caches.empty() && next_cache != caches.size()) {
        const std::size_t after = last_named == plateaus.size() ? 0 : last_named + 1;
        for (std::size_t k = memory; k-- > after;) {
            if (!plateaus[k].name.starts_with("cache ")) continue;
            const CacheReach &deepest = caches.back();
            plateaus[k].name = fmt::format("L{}", deepest.level);
            if (deepest.socket_wide) plateaus[k].reported_bytes = deepest.bytes;
            break;
        }
    }
    // A TLB step keeps the name of the level it steps from: "L2 past L1 TLB".
    for (std::size_t k = 1; k < plateaus.size(); ++k)
        if (tlb_step[k]) {
            std::size_t from = k;
            while (tlb_step[from])
                --from;
            plateaus[k].name = fmt::format("{} past L{} TLB", plateaus[from].name, tlb_step[k]);
            plateaus[k].reported_bytes = 0;
        }
}

} // namespace vrb
