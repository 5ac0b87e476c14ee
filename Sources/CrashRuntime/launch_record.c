#include <fcntl.h>
#include <unistd.h>
#include "launch_record.h"

#include <dirent.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int parse_double(const char *text, double *out) {
    char *end = NULL;
    errno = 0;
    double value = strtod(text, &end);
    if (end == text || errno != 0) return -1;
    while (*end == '\n' || *end == '\r' || *end == ' ') end++;
    if (*end != '\0') return -1;
    *out = value;
    return 0;
}

int seam_launch_record_read(const char *path, seam_launch_record *record, char *error,
                            size_t error_size) {
    FILE *file = fopen(path, "r");
    if (!file) {
        if (errno == ENOENT) return 0;
        snprintf(error, error_size, "cannot open launch record %s: %s", path, strerror(errno));
        return -1;
    }
    enum { CLEAN = 1, BEFORE = 2, SINCE = 4, CHECKPOINT = 8, ALL = 15 };
    int seen = 0;
    int line_number = 0;
    char line[256];
    memset(record, 0, sizeof *record);
    while (fgets(line, sizeof line, file)) {
        line_number++;
        char *equals = strchr(line, '=');
        double value = 0;
        if (!equals || parse_double(equals + 1, &value) != 0) {
            snprintf(error, error_size, "launch record %s line %d is not key=number", path,
                     line_number);
            fclose(file);
            return -1;
        }
        *equals = '\0';
        if (strcmp(line, "clean_exit") == 0) {
            record->clean_exit = value != 0;
            seen |= CLEAN;
        } else if (strcmp(line, "active_before") == 0) {
            record->active_before = value;
            seen |= BEFORE;
        } else if (strcmp(line, "active_since") == 0) {
            record->active_since = value;
            seen |= SINCE;
        } else if (strcmp(line, "last_checkpoint") == 0) {
            record->last_checkpoint = value;
            seen |= CHECKPOINT;
        }
    }
    fclose(file);
    if (seen != ALL) {
        snprintf(error, error_size,
                 "launch record %s is incomplete (needs clean_exit, active_before, active_since, "
                 "last_checkpoint)",
                 path);
        return -1;
    }
    return 1;
}

int seam_launch_record_write(const char *path, const seam_launch_record *record, char *error,
                             size_t error_size) {
    // Unique per process and call: two processes sharing one store never write one temporary.
    static _Atomic unsigned sequence;
    char temporary[4096];
    if (snprintf(temporary, sizeof temporary, "%s.%d.%u.tmp", path, (int)getpid(),
                 atomic_fetch_add(&sequence, 1)) >= (int)sizeof temporary) {
        snprintf(error, error_size, "launch record path too long: %s", path);
        return -1;
    }
    // owner-only, like every file the crash library keeps
    int fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    FILE *file = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!file) {
        if (fd >= 0) close(fd);
        snprintf(error, error_size, "cannot write launch record %s: %s", temporary,
                 strerror(errno));
        return -1;
    }
    int written = fprintf(file,
                          SEAM_LAUNCH_RECORD_CLEAN_EXIT_KEY "%d\nactive_before=%.6f\nactive_since=%.6f\n"
                          "last_checkpoint=%.6f\n",
                          record->clean_exit != 0, record->active_before, record->active_since,
                          record->last_checkpoint);
    int closed = fclose(file);
    if (written < 0 || closed != 0 || rename(temporary, path) != 0) {
        snprintf(error, error_size, "cannot write launch record %s: %s", path, strerror(errno));
        remove(temporary);
        return -1;
    }
    return 0;
}

/// Newest modification time (seconds since 1970) of a regular file in `directory` other than
/// the launch record, or 0 when there is none.
static double newest_file_time(const char *directory) {
    DIR *dir = opendir(directory);
    if (!dir) return 0;
    double newest = 0;
    struct dirent *entry;
    char path[4096];
    while ((entry = readdir(dir)) != NULL) {
        if (strncmp(entry->d_name, SEAM_LAUNCH_RECORD_NAME, strlen(SEAM_LAUNCH_RECORD_NAME)) == 0)
            continue;
        if (snprintf(path, sizeof path, "%s/%s", directory, entry->d_name) >= (int)sizeof path)
            continue;
        struct stat info;
        if (stat(path, &info) != 0 || !S_ISREG(info.st_mode)) continue;
        double time = (double)info.st_mtim.tv_sec + info.st_mtim.tv_nsec / 1e9;
        if (time > newest) newest = time;
    }
    closedir(dir);
    return newest;
}

seam_previous_launch seam_launch_record_previous(const seam_launch_record *record,
                                                 const char *directory) {
    seam_previous_launch previous = {0, record->active_before, record->active_before};
    if (record->clean_exit) return previous;
    double crash_time = record->last_checkpoint;
    double newest = newest_file_time(directory);
    if (newest > crash_time) crash_time = newest;
    double active_in_crashed_launch = 0;
    if (record->active_since > 0 && crash_time > record->active_since)
        active_in_crashed_launch = crash_time - record->active_since;
    previous.crashed = 1;
    previous.active_duration_since_last_crash = record->active_before + active_in_crashed_launch;
    previous.carried_active = 0;
    return previous;
}
