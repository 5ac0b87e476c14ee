// Thread enumeration via open/getdents64/read: no opendir (it allocates), no stdio.
#define _GNU_SOURCE
#include "thread_list.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>


struct linux_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

static size_t append(char *to, size_t at, size_t size, const char *text) {
    while (*text && at + 1 < size) to[at++] = *text++;
    to[at] = '\0';
    return at;
}

static size_t append_decimal(char *to, size_t at, size_t size, long value) {
    char digits[24];
    int n = 0;
    if (value < 0) value = 0;
    do { digits[n++] = (char)('0' + value % 10); value /= 10; } while (value > 0 && n < 23);
    while (n > 0 && at + 1 < size) to[at++] = digits[--n];
    to[at] = '\0';
    return at;
}

void seam_thread_name(pid_t tid, char *name, size_t size) {
    char path[64];
    size_t at = append(path, 0, sizeof path, "/proc/self/task/");
    at = append_decimal(path, at, sizeof path, tid);
    append(path, at, sizeof path, "/comm");
    name[0] = '\0';
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t n = read(fd, name, size - 1);
    close(fd);
    if (n <= 0) { name[0] = '\0'; return; }
    if (name[n - 1] == '\n') n--;
    name[n] = '\0';
}

static long parse_tid(const char *text) {
    long value = 0;
    if (*text == '\0') return -1;
    for (; *text; text++) {
        if (*text < '0' || *text > '9' || value > 100000000) return -1;
        value = value * 10 + (*text - '0');
    }
    return value;
}

size_t seam_list_threads(pid_t *tids, size_t max) {
    static char entries[4096];
    size_t count = 0;
    int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    while (fd >= 0 && count < max) {
        long n = syscall(SYS_getdents64, fd, entries, sizeof entries);
        if (n <= 0) break;
        for (long at = 0; at < n && count < max;) {
            struct linux_dirent64 *entry = (struct linux_dirent64 *)(entries + at);
            if (entry->d_reclen == 0) break;
            at += entry->d_reclen;
            long tid = parse_tid(entry->d_name);
            if (tid > 0) tids[count++] = (pid_t)tid;
        }
    }
    if (fd >= 0) close(fd);
    return count;
}
