// Any command line (NUL-separated words): parsed into options or refused with a
// parse error, and every value the core would then read is parsed too.
#include "commands.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::vector<std::string> words{"vrambench"};
    std::string word;
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == 0) {
            words.push_back(word);
            word.clear();
        } else {
            word.push_back(static_cast<char>(data[i]));
        }
    }
    words.push_back(word);
    std::vector<char *> argv;
    for (auto &w : words)
        argv.push_back(w.data());

    CLI::App app;
    app.require_subcommand(1);
    vrb::cli::Options options;
    vrb::cli::add_commands(app, options);
    // Commands that run from their CLI11 callback (plugin-check) would run here on
    // whatever file the input names: only their parsing is under test.
    for (CLI::App *command : app.get_subcommands([](CLI::App *) { return true; }))
        command->callback(std::function<void()>{});
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
        if (!options.size.empty()) (void)vrb::parse_size(options.size);
        if (!options.memory_limit.empty()) (void)vrb::parse_memory_limit(options.memory_limit);
    } catch (const CLI::Error &) {
    } catch (const vrb::UsageError &) {
    }
    return 0;
}
