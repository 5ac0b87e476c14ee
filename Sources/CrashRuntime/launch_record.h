// The reporter's launch record: one small text file per state directory saying whether the
// current launch is still running and how long the process has been active since the last
// crash. Written at install and on lifecycle notifications, never at crash time.
#ifndef SEAM_LAUNCH_RECORD_H
#define SEAM_LAUNCH_RECORD_H

#include <stddef.h>

#define SEAM_LAUNCH_RECORD_NAME "launch-record"
/// The record's first line is this key and one digit (1: clean exit); the signal handler turns
/// the digit to 0 in place when a crash begins.
#define SEAM_LAUNCH_RECORD_CLEAN_EXIT_KEY "clean_exit="

typedef struct seam_launch_record {
    /// Non-zero once the launch ended cleanly (will-terminate, uninstall or exit()).
    int clean_exit;
    /// Active seconds of earlier launches since the last crash.
    double active_before;
    /// When the current active period began (seconds since 1970), 0 when not active.
    double active_since;
    /// When the record was last written.
    double last_checkpoint;
} seam_launch_record;

/// What the previous launch left behind, as the reporter reports it.
typedef struct seam_previous_launch {
    int crashed;
    double active_duration_since_last_crash;
    /// Active seconds this launch starts from (0 after a crash).
    double carried_active;
} seam_previous_launch;

/// Returns 1 and fills `record`, 0 when the file does not exist, -1 with a reason naming the
/// file when it cannot be read or parsed.
int seam_launch_record_read(const char *path, seam_launch_record *record, char *error,
                            size_t error_size);
/// Writes atomically (temporary file + rename). Returns 0, or -1 with a reason naming the file.
int seam_launch_record_write(const char *path, const seam_launch_record *record, char *error,
                             size_t error_size);
/// Interprets the previous record. A launch that never exited cleanly crashed; its crash time is
/// the newest regular file in `directory` written after the last checkpoint (the dump, when
/// dumps live there), else the last checkpoint.
seam_previous_launch seam_launch_record_previous(const seam_launch_record *record,
                                                 const char *directory);

#endif
