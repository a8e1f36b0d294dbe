// The mock module that exports no vrb_plugin_entry (mock_plugin.cpp's no_entry variant),
// for the loader's refusal of a library without one. A source of its own: the other
// variants share one compiled mock_plugin.cpp, whose entry every module linked with it
// exports, so this one is the only module built without that object.
#include <vrambench/plugin.h>

// Something exported, so the library is refused for the missing entry and nothing else.
extern "C" VRB_EXPORT int vrb_not_the_entry(void)
{
    return 0;
}
