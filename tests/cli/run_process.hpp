// Runs a program to completion and keeps what it printed, for end-to-end tests.
#pragma once

#include <string>
#include <vector>

struct ProcessResult {
    int exit_code = -1; // 128 + signal when it was killed by one
    std::string out, err;
};

ProcessResult run_process(const std::vector<std::string> &argv, const std::vector<std::string> &extra_env = {});
