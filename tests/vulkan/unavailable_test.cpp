// Without a driver, init() says "unavailable" and why, and nothing crashes. The loader
// reads VK_DRIVER_FILES when an instance is created, so the test runs this program
// again with the variables pointing nowhere and checks what the child reports.
#include "backend.hpp"

#include <gtest/gtest.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

extern char **environ;

namespace vrb::vulkan::test {
namespace {

constexpr const char *kChildMarker = "VRB_VULKAN_TEST_CHILD";

TEST(Unavailable, child_half_of_the_no_driver_test)
{
    if (!std::getenv(kChildMarker)) GTEST_SKIP() << "run by init_without_a_driver_is_unavailable_with_a_reason";
    vrb_host_table host{};
    host.struct_size = sizeof host;
    host.abi_version = VRB_ABI_VERSION;
    vrb_context *context = nullptr;
    const vrb_status status = table().init(&host, &context);
    EXPECT_EQ(status, VRB_ERROR_UNAVAILABLE);
    EXPECT_EQ(context, nullptr);
    std::printf("reason: %s\n", table().last_error());
}

TEST(Unavailable, init_without_a_driver_is_unavailable_with_a_reason)
{
    std::vector<std::string> env_strings;
    for (char **e = environ; *e; ++e)
        env_strings.emplace_back(*e);
    env_strings.emplace_back("VK_DRIVER_FILES=/nonexistent");
    env_strings.emplace_back("VK_ICD_FILENAMES=/nonexistent");
    env_strings.emplace_back(std::string(kChildMarker) + "=1");
    std::vector<char *> env;
    for (std::string &s : env_strings)
        env.push_back(s.data());
    env.push_back(nullptr);

    std::string self = "/proc/self/exe";
    std::string filter = "--gtest_filter=Unavailable.child_half_of_the_no_driver_test";
    char *argv[] = {self.data(), filter.data(), nullptr};

    int out[2];
    ASSERT_EQ(pipe(out), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    pid_t child = 0;
    const int spawned = posix_spawn(&child, "/proc/self/exe", &actions, nullptr, argv, env.data());
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    ASSERT_EQ(spawned, 0);
    std::string output;
    char chunk[4096];
    for (ssize_t n; (n = read(out[0], chunk, sizeof chunk)) > 0;)
        output.append(chunk, static_cast<std::size_t>(n));
    close(out[0]);
    int wstatus = 0;
    ASSERT_EQ(waitpid(child, &wstatus, 0), child);
    ASSERT_TRUE(WIFEXITED(wstatus)) << "the child crashed:\n" << output;
    EXPECT_EQ(WEXITSTATUS(wstatus), 0) << output;
    EXPECT_NE(output.find("1 test"), std::string::npos) << output;
    EXPECT_NE(output.find("reason: "), std::string::npos) << output;
    EXPECT_NE(output.find("VK_DRIVER_FILES=/nonexistent"), std::string::npos) << output;
}

} // namespace
} // namespace vrb::vulkan::test
