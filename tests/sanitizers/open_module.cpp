// Opens one backend module as vrambench does, describes and opens every device, and
// returns from main, so the sanitizers' checks at exit (LeakSanitizer) cover all the
// module and its driver did. The leak tests run it as a child process.
#include <vrambench/core/modules/registry.hpp>

#include <cstdio>
#include <exception>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s MODULE.so\n", argv[0]);
        return 2;
    }
    try {
        vrb::BackendEntry entry = vrb::open_backend(argv[1]);
        if (entry.state != vrb::BackendEntry::State::available) {
            std::fprintf(stderr, "%s: %s\n", argv[1], entry.reason.c_str());
            return 3;
        }
        const uint32_t devices = entry.backend->device_count();
        for (uint32_t i = 0; i < devices; ++i) {
            const vrb_device_info info = entry.backend->describe(i);
            entry.backend->open(i);
            std::printf("%s:%u %s\n", entry.name.c_str(), i, info.name);
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 3;
    }
    return 0;
}
