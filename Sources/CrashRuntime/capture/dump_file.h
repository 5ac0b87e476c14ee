// Creating a pending dump file, with only syscalls so a forked child can make its own at
// crash time: hidden name, exclusive flock, the prelude (what is known before any crash),
// space reserved for the rest, then a link to its real name. The dump never appears unlocked.
#ifndef SEAM_DUMP_FILE_H
#define SEAM_DUMP_FILE_H

#include "dump_writer.h"

#include <stddef.h>

/// Largest and smallest space reserved for a crash's sections at install (halved until the
/// file system grants it); the handler's writes into reserved space cannot fail for lack of room.
#define SEAM_DUMP_RESERVE_MAX (2u * 1024 * 1024)
#define SEAM_DUMP_RESERVE_MIN (16u * 1024)

/// Creates `<directory>/<unix-time>-<pid>-<random>.seamdump` (path written to `path`), locked,
/// holding the prelude. Returns the descriptor (O_WRONLY, positioned after the prelude) or -1
/// with errno set. Async-signal-safe. `reserved` receives the bytes reserved after the prelude.
int seam_dump_file_create(const char *directory, char *path, size_t path_size, seam_dump_writer *w,
                          size_t *reserved);
/// Writes the prelude: PID, INSTALL_TIME_SEC, PROCESS, SYSTEM_INFO, ANNOTATIONS.
void seam_write_prelude(seam_dump_writer *w);

#endif
