// The Swift runtime's fatal-error message (fatalError, precondition, force-unwrap of nil...),
// read at crash time from the buffer swift_getFatalErrorMessageBuffer() names.
#ifndef SEAM_FATAL_MESSAGE_H
#define SEAM_FATAL_MESSAGE_H

#include "dump_writer.h"

#define SEAM_FATAL_MESSAGE_MAX 4096

/// Looks the runtime's buffer up (dlsym); call at install. Not signal-safe.
void seam_fatal_message_prepare(void);
/// Writes FATAL_ERROR_MESSAGE when the runtime has recorded one. Async-signal-safe: the
/// buffer is read through seam_safe_read.
void seam_write_fatal_error_message(seam_dump_writer *w);

#endif
