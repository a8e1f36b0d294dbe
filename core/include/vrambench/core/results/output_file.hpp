// Writing a result set (or an index) where the user asked: `-o PATH` keeps what PATH is.
#pragma once

#include <filesystem>
#include <string>

namespace vrb {

// Where writing `file` puts the bytes. A symbolic link is followed, hop by hop, to the
// file it names (which may not exist yet), so the link stays and its target gets the
// text. Anything that exists and is not a regular file (a FIFO, a character device,
// /dev/stdout) is written where it is: `file` itself comes back.
// Throws UsageError for a loop of links.
std::filesystem::path output_destination(const std::filesystem::path &file);

// Writes text to `file`. A regular file (or none yet) is replaced through a temporary
// file in its folder and a rename, so a reader never sees half a file and a failure
// leaves nothing behind; a FIFO or a device is opened and written in place (a FIFO
// waits for its reader). Throws UsageError when the folder does not exist, RunError
// naming the file and the cause when any write fails (ENOSPC, EIO, EPIPE ...).
void write_file_atomically(const std::filesystem::path &file, const std::string &text);

} // namespace vrb
