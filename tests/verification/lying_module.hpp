// The lying module (tests/mock/lying_plugin.cpp) opened in this process with one lie,
// and what it says it did: each line of its log, in the words a probe's verification
// uses ("byte 0x1ffc: 0x12345778, expected 0x12345678").
#pragma once

#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/probes/probe.hpp>
#include <vrambench/core/run/runner.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace vrb::test {

// A log file of its own for each lie told, removed with it.
inline std::filesystem::path fresh_log_path()
{
    static int made = 0;
    return std::filesystem::temp_directory_path() /
           ("vrambench-lies-" + std::to_string(::getpid()) + "-" + std::to_string(made++) + ".log");
}

inline std::vector<std::string> read_lines(const std::filesystem::path &path)
{
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

class Liar {
  public:
    // `lie` as VRAMBENCH_LIE takes it; "" tells none. The module reads it when it starts.
    explicit Liar(const std::string &lie) : log_(fresh_log_path())
    {
        if (lie.empty())
            ::unsetenv("VRAMBENCH_LIE");
        else
            ::setenv("VRAMBENCH_LIE", lie.c_str(), 1);
        ::setenv("VRAMBENCH_LIE_LOG", log_.c_str(), 1);
        entry = open_backend(MOCK_LIAR_PATH);
        ::unsetenv("VRAMBENCH_LIE");
        ::unsetenv("VRAMBENCH_LIE_LOG");
        if (entry.state != BackendEntry::State::available) throw std::runtime_error("liar: " + entry.reason);
        device = entry.backend->open(0);
        record = describe_device(*entry.backend, device.get(), 0);
    }
    ~Liar() { std::filesystem::remove(log_); }
    Liar(const Liar &) = delete;
    Liar &operator=(const Liar &) = delete;

    std::vector<ProbeResult> run(std::string_view id, const ProbeOptions &options)
    {
        for (const auto &probe : all_probes()) {
            if (probe->id() != id) continue;
            std::vector<ProbeResult> results;
            ProbeContext ctx{*device, record, options, [&](ProbeResult r) { results.push_back(std::move(r)); }, {}};
            probe->run(ctx);
            return results;
        }
        throw std::invalid_argument("no probe " + std::string(id));
    }

    // Every lie told so far, first first.
    std::vector<std::string> told() const { return read_lines(log_); }

    // The addresses of the lanes it spoiled ("0x1ffc").
    std::vector<std::string> told_bytes() const
    {
        std::vector<std::string> out;
        for (const std::string &line : told()) {
            char address[32], actual[16], expected[16];
            if (std::sscanf(line.c_str(), "byte %31[^:]: %15[^,], expected %15s", address, actual, expected) == 3)
                out.push_back(address);
        }
        return out;
    }

    // Each spoiled lane as the capacity probes' own read of it reads: "0x12345778 at byte
    // 0x1ffc where 0x12345678 was written".
    std::vector<std::string> told_as_host_read() const
    {
        std::vector<std::string> out;
        for (const std::string &line : told()) {
            char address[32], actual[16], expected[16];
            if (std::sscanf(line.c_str(), "byte %31[^:]: %15[^,], expected %15s", address, actual, expected) == 3)
                out.push_back(std::string(actual) + " at byte " + address + " where " + expected + " was written");
        }
        return out;
    }

    BackendEntry entry;
    std::unique_ptr<Device> device;
    DeviceRecord record;

  private:
    std::filesystem::path log_;
};

} // namespace vrb::test
