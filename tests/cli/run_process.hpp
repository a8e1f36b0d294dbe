// Runs a program to completion and keeps what it printed, for end-to-end tests.
#pragma once

#include <string>
#include <vector>

struct ProcessResult {
    int exit_code = -1; // 128 + signal when it was killed by one
    std::string out, err;
};

ProcessResult run_process(const std::vector<std::string> &argv, const std::vector<std::string> &extra_env = {});

inline bool contains(const std::string &text, const std::string &needle)
{
    return text.find(needle) != std::string::npos;
}

#ifdef VRAMBENCH_EXE
// The vrambench built beside the tests, run with `args` (and `extra_env`).
inline ProcessResult vrambench(std::vector<std::string> args, const std::vector<std::string> &extra_env = {})
{
    args.insert(args.begin(), VRAMBENCH_EXE);
    return run_process(args, extra_env);
}

// `vrambench plugin-check MODULE` with more arguments after it.
inline ProcessResult plugin_check(const std::string &module, const std::vector<std::string> &extra = {},
                                  const std::vector<std::string> &extra_env = {})
{
    std::vector<std::string> args{"plugin-check", module};
    args.insert(args.end(), extra.begin(), extra.end());
    return vrambench(args, extra_env);
}
#endif
