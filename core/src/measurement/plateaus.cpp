#include <vrambench/core/measurement/plateaus.hpp>
#include <vrambench/core/measurement/sizes.hpp>
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
    uint32_t deepest = 0;
    for (uint32_t i = 0; i < info.cache_count && i < VRB_MAX_CACHES; ++i)
        if (module_text(info.caches[i].kind) != "instruction" && info.caches[i].bytes)
            deepest = std::max(deepest, info.caches[i].level);
    for (uint32_t i = 0; i < info.cache_count && i < VRB_MAX_CACHES; ++i) {
        const vrb_cache_info &c = info.caches[i];
        if (module_text(c.kind) == "instruction" || c.bytes == 0) continue;
        // A GPU's last level is one for the whole device, whether or not its module says
        // who shares it: one per unit would put its memory past what the card holds.
        const bool device_wide = !c.shared_by && info.type != VRB_DEVICE_CPU && c.level == deepest;
        const uint32_t shared_by = device_wide ? units : c.shared_by;
        CacheReach r{c.level, c.bytes, 1, 1};
        const uint64_t users = std::min(threads, units);
        r.socket_wide = c.bytes / std::max<uint64_t>(shared_by ? shared_by : units, 1) > most_visible_share;
        if (shared_by) {
            // Shared by s units: the threads spread over ceil(users / s) instances.
            r.fewest = r.most = std::max<uint64_t>(1, (users + shared_by - 1) / shared_by);
        } else {
            r.most = std::max<uint64_t>(1, users);
        }
        out.push_back(r);
    }
    std::sort(out.begin(), out.end(), [](const CacheReach &a, const CacheReach &b) { return a.level < b.level; });
    return out;
}

void name_plateaus(std::vector<Plateau> &plateaus, std::span<const CacheReach> caches, double largest_x,
                   CurveFigure figure, bool settled, std::span<const TlbReach> tlbs)
{
    const std::size_t n = plateaus.size();
    for (Plateau &p : plateaus) {
        p.name.clear();
        p.reported_bytes = 0;
    }
    if (n == 0) return;
    const bool latency = figure == CurveFigure::latency;
    auto reach = [](const CacheReach &c) { return static_cast<double>(c.bytes * c.most); };

    // Where the curve can have reached memory: past memory_factor x every cache it can
    // see (a socket-wide cache's reported size is none of them), or grown until it settled.
    double largest = 0;
    bool socket_wide = false;
    for (const CacheReach &c : caches)
        if (c.socket_wide)
            socket_wide = true;
        else
            largest = std::max(largest, reach(c));
    const bool reached = settled || ((largest > 0 || socket_wide) && largest_x >= memory_factor * largest);
    // A socket-wide cache holds at most most_visible_share for each unit the threads use.
    auto inside_a_cache = [&](std::size_t k) {
        return std::any_of(caches.begin(), caches.end(), [&](const CacheReach &c) {
            const double held = c.socket_wide ? static_cast<double>(most_visible_share * c.most) : reach(c);
            return plateaus[k].ends_at <= held;
        });
    };

    // Memory: the last plateau, and on a latency curve every plateau before it that only
    // translation separates from it (steps under translation_step), back to one that ends
    // inside a cache.
    std::size_t memory = n;
    if (reached) {
        memory = n - 1;
        if (latency)
            while (memory > 0 && !inside_a_cache(memory - 1) &&
                   plateaus[memory].level < translation_step * plateaus[memory - 1].level)
                --memory;
    }

    // The cache level each plateau before memory lies in: the first whose reach its end
    // is within level_reach of; a socket-wide cache takes whatever lies past the others.
    auto level_of = [&](std::size_t k) {
        for (std::size_t c = 0; c < caches.size(); ++c)
            if (caches[c].socket_wide || plateaus[k].ends_at <= level_reach * reach(caches[c])) return c;
        return caches.size();
    };
    auto level_name = [&](std::size_t c) { return fmt::format("L{}", caches[c].level); };
    auto next_name = [&](std::size_t c) {
        return c + 1 < caches.size() ? level_name(c + 1) : memory < n ? std::string("memory") : std::string();
    };

    std::size_t taken = 0;            // levels before this one took a plateau or were passed
    std::size_t last = caches.size(); // the level the last named plateau lies in
    bool any_level = false;
    std::size_t deepest_yet = 0;
    for (std::size_t k = 0; k < memory; ++k) {
        Plateau &p = plateaus[k];
        const bool improved_on = figure == CurveFigure::bandwidth && k + 1 < n && plateaus[k + 1].level > p.level;
        if (!any_level && improved_on) {
            p.name = "overhead";
            continue;
        }
        any_level = true;
        const std::size_t c = std::max(level_of(k), deepest_yet); // levels come in order of size
        deepest_yet = c;
        if (c == caches.size()) {
            p.name = caches.empty() ? std::string(memory < n ? "before memory" : "short of memory")
                     : memory < n   ? fmt::format("between {} and memory", level_name(caches.size() - 1))
                                    : fmt::format("past {}", level_name(caches.size() - 1));
            last = c;
            continue;
        }
        if (c == last || c < taken) {
            // A second plateau in a level: translation on a latency curve when it less than
            // doubles the latency, else something between that level and the next.
            const bool translation =
                latency && p.level > plateaus[k - 1].level && p.level < translation_step * plateaus[k - 1].level;
            const std::string next = next_name(c);
            p.name = translation    ? fmt::format("{} past the TLB", level_name(c))
                     : next.empty() ? fmt::format("past {}", level_name(c))
                                    : fmt::format("between {} and {}", level_name(c), next);
            last = c;
            continue;
        }
        // The level's first plateau is that level, and the levels before it no plateau
        // took, whose reach this one began inside: no step told them apart.
        for (std::size_t e = taken; e < c; ++e)
            if (!caches[e].socket_wide && p.starts_at > 0 && 2 * p.starts_at <= reach(caches[e]))
                p.name += level_name(e) + "+";
        p.name += level_name(c);
        if (caches[c].socket_wide) p.reported_bytes = caches[c].bytes;
        taken = c + 1;
        last = c;
    }
    if (memory < n) plateaus[memory].name = "memory";
    // Each later step is a translation: past the reach of the largest TLB the set records
    // that the step's working set outgrew, or numbered where it records none.
    for (std::size_t k = memory + 1; k < n && memory < n; ++k) {
        const double x = plateaus[k - 1].ends_at;
        const TlbReach *outgrown = nullptr;
        for (const TlbReach &t : tlbs)
            if (static_cast<double>(t.bytes) <= x && (!outgrown || t.bytes > outgrown->bytes)) outgrown = &t;
        plateaus[k].name =
            outgrown ? fmt::format("memory past the L{} TLB ({})", outgrown->level, format_size(outgrown->bytes))
                     : std::string("memory past the TLB");
    }
    // Every name once, so that sets compare level by level: a second step of one kind
    // is numbered.
    for (std::size_t k = 1; k < n; ++k) {
        std::size_t same = 1;
        for (std::size_t j = 0; j < k; ++j)
            if (plateaus[j].name == plateaus[k].name || plateaus[j].name.starts_with(plateaus[k].name + " (")) ++same;
        if (same > 1) plateaus[k].name += fmt::format(" ({})", same);
    }
}

} // namespace vrb
