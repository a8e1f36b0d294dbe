// What a module starts must not outlive its worker. A helper that called setsid() or
// was double-forked leaves every process group the worker had, so the supervisor
// becomes the reaper of its descendants' orphans and ends, by pid, every child it did
// not have before the worker started. Each worker is the reaper of its own module's
// orphans while it lives, so the helpers of a worker running beside another are not
// the supervisor's children until their worker has ended.
#pragma once

#include <set>
#include <sys/types.h>

namespace vrb {

// Makes this process the one orphans of its descendants are handed to
// (PR_SET_CHILD_SUBREAPER), instead of init. Returns false where the kernel refuses.
bool adopt_orphans();

// The children of this process now, as /proc lists them (zombies included).
std::set<pid_t> child_processes();

// Kills (SIGKILL) and reaps every child of this process that is not in `keep`, then
// the orphans each one leaves behind, until no such child is left.
void end_children_except(const std::set<pid_t> &keep);

} // namespace vrb
