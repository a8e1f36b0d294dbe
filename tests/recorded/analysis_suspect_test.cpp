// analyze re-derives the suspect marks of a stored set as a live run marks them now: a
// figure above the device's peak past twice its last-level cache, or a host-device figure
// past its link, becomes suspect with the live sentence; one that no longer is goes back
// to ok; a failed figure and every measured value are left as they were.
#include <vrambench/core/analysis/suspect.hpp>
#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

using nlohmann::json;

json suspect_test_h200()
{
    return vrb::read_result_file(std::filesystem::path(VRAMBENCH_RESULTS_DIR) / "nvidia-h200-cuda" / "standard.json");
}

// The H200 described as a card of no datasheet entry and a slow memory clock: a peak far
// below what its memory moved.
void suspect_test_lower_the_peak(json &set)
{
    for (json &d : set["devices"]) {
        d["pci"]["device_id"] = 1;
        d["memory_clock_khz"] = 100000;
    }
}

json *suspect_test_result(json &set, const std::string &probe, const std::string &what)
{
    for (json &r : set["results"])
        if (r["probe"] == probe &&
            (r["parameters"].value("operation", "") == what || r["parameters"].value("direction", "") == what))
            return &r;
    return nullptr;
}

// Every measured figure of a set: each result's value, runs, samples and statistics, and
// each curve point's, as text.
std::string suspect_test_measured(const json &set)
{
    std::string out;
    for (const json &r : set["results"]) {
        const bool curve = r.contains("extra") && r["extra"].is_object() && r["extra"].contains("curve");
        if (!curve)
            for (const char *key : {"value", "seconds", "samples", "statistics", "bytes_per_run"})
                out += r.value(key, json()).dump() + "\n";
        if (curve)
            for (const json &p : r["extra"]["curve"]["points"])
                for (const char *key : {"value", "seconds", "samples", "statistics", "bytes_per_run"})
                    out += p.value(key, json()).dump() + "\n";
    }
    return out;
}

} // namespace

TEST(AnalysisSuspect, AFigureAboveThePeakPastTwiceTheCacheRecordedOkBecomesSuspectWithTheLiveSentence)
{
    json set = suspect_test_h200();
    suspect_test_lower_the_peak(set);
    json *read = suspect_test_result(set, "bandwidth.stream", "read");
    ASSERT_TRUE(read);
    ASSERT_EQ((*read)["status"], "ok");
    const auto marks = vrb::analysis::rederive_suspect_marks(set);
    EXPECT_EQ((*read)["status"], "suspect");
    const std::string error = (*read)["error"].get<std::string>();
    EXPECT_NE(error.find("is above the"), std::string::npos) << error;
    EXPECT_NE(error.find("past the 60 MiB last-level cache's 2x"), std::string::npos) << error;
    EXPECT_FALSE(marks.changes.empty());
    EXPECT_GT(marks.rederived, 0u);
    EXPECT_FALSE(vrb::validate_result_json(set));
}

TEST(AnalysisSuspect, ACurvesPointsAreMarkedEachOverItsOwnFootprint)
{
    json set = suspect_test_h200();
    suspect_test_lower_the_peak(set);
    json *sweep = suspect_test_result(set, "bandwidth.sweep", "read");
    ASSERT_TRUE(sweep);
    vrb::analysis::rederive_suspect_marks(set);
    std::size_t in_cache = 0, past_cache = 0;
    for (const json &p : (*sweep)["extra"]["curve"]["points"]) {
        const double bytes = p["working_set_bytes"].get<double>();
        if (bytes < 60.0 * (1 << 20)) {
            EXPECT_EQ(p["status"], "ok") << bytes; // a cache figure may beat the memory's peak
            ++in_cache;
        } else if (bytes >= 2 * 60.0 * (1 << 20)) {
            EXPECT_EQ(p["status"], "suspect") << bytes;
            EXPECT_TRUE(p["error"].is_string());
            ++past_cache;
        }
    }
    EXPECT_GT(in_cache, 0u);
    EXPECT_GT(past_cache, 0u);
    EXPECT_EQ((*sweep)["status"], "ok"); // a curve's own figure is not set against the peak
}

TEST(AnalysisSuspect, ARecordedSuspectWhoseDevicePeakIsNowHigherGoesBackToOk)
{
    json set = suspect_test_h200();
    json *read = suspect_test_result(set, "bandwidth.stream", "read");
    ASSERT_TRUE(read);
    (*read)["status"] = "suspect";
    (*read)["error"] = "4530.3 GB/s over 768 MiB is above the runtime-clock peak of 3000.0 GB/s";
    json *sweep = suspect_test_result(set, "bandwidth.sweep", "read");
    ASSERT_TRUE(sweep);
    json &point = (*sweep)["extra"]["curve"]["points"].back();
    point["status"] = "suspect";
    point["error"] = "above an older peak";
    const auto marks = vrb::analysis::rederive_suspect_marks(set);
    EXPECT_EQ((*read)["status"], "ok");
    EXPECT_TRUE((*read)["error"].is_null());
    EXPECT_EQ(point["status"], "ok");
    EXPECT_FALSE(point.contains("error"));
    ASSERT_EQ(marks.changes.size(), 2u);
    EXPECT_EQ(marks.changes.front().where, "cuda:0 bandwidth.stream read 16B");
    EXPECT_EQ(marks.changes.front().after, "ok");
    EXPECT_NE(marks.changes.front().before.find("suspect: 4530.3 GB/s"), std::string::npos);
    EXPECT_EQ(marks.changes.back().where, "cuda:0 bandwidth.sweep read at working_set_bytes 503316480");
    EXPECT_FALSE(vrb::validate_result_json(set));
}

TEST(AnalysisSuspect, AHostDeviceFigurePastItsRecordedLinkBecomesSuspectAndOneWithinTheDeviceDoesNot)
{
    json set = suspect_test_h200();
    for (json &d : set["devices"])
        d["link"]["max"] = {{"generation", 1}, {"speed_gts", 2.5}, {"width", 1}, {"rate_gb_per_s", 0.25}};
    vrb::analysis::rederive_suspect_marks(set);
    json *pinned = suspect_test_result(set, "bandwidth.transfer", "host-to-device pinned");
    json *d2d = suspect_test_result(set, "bandwidth.transfer", "device-to-device");
    ASSERT_TRUE(pinned && d2d);
    EXPECT_EQ((*pinned)["status"], "suspect");
    EXPECT_NE((*pinned)["error"].get<std::string>().find("(host-to-device pinned) is above what the"),
              std::string::npos)
        << (*pinned)["error"];
    EXPECT_EQ((*pinned)["extra"]["curve"]["points"].back()["status"], "suspect");
    EXPECT_EQ((*d2d)["status"], "ok");
}

TEST(AnalysisSuspect, AFailedResultIsNeverTouched)
{
    json set = suspect_test_h200();
    suspect_test_lower_the_peak(set);
    json *read = suspect_test_result(set, "bandwidth.stream", "read");
    ASSERT_TRUE(read);
    (*read)["status"] = "failed";
    (*read)["error"] = "the operation did not complete";
    json *copy = suspect_test_result(set, "bandwidth.stream", "copy");
    ASSERT_TRUE(copy);
    (*copy)["status"] = "verification_failed";
    const json failed = *read, unverified = *copy;
    vrb::analysis::rederive_suspect_marks(set);
    EXPECT_EQ(*read, failed);
    EXPECT_EQ(*copy, unverified);
}

TEST(AnalysisSuspect, AResultThatDoesNotRecordItsFootprintKeepsItsMarkAndIsCounted)
{
    json set = suspect_test_h200();
    suspect_test_lower_the_peak(set);
    json recorded = set;
    // The interop pairs do not record whether the exporter shared host memory, which
    // would put their bytes across the H200's link.
    const std::size_t interop = vrb::analysis::rederive_suspect_marks(recorded).kept;
    EXPECT_GT(interop, 0u);
    json *read = suspect_test_result(set, "bandwidth.stream", "read");
    ASSERT_TRUE(read);
    (*read)["parameters"].erase("elements");
    const auto marks = vrb::analysis::rederive_suspect_marks(set);
    EXPECT_EQ((*read)["status"], "ok");
    EXPECT_EQ(marks.kept, interop + 1);
}

TEST(AnalysisSuspect, MeasuredValuesAreByteIdenticalAfterTheMarksAreRederived)
{
    json set = suspect_test_h200();
    suspect_test_lower_the_peak(set);
    const std::string before = suspect_test_measured(set);
    const auto marks = vrb::analysis::rederive_suspect_marks(set);
    EXPECT_FALSE(marks.changes.empty());
    EXPECT_EQ(suspect_test_measured(set), before);
}
