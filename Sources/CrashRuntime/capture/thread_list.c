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

ssize_t seam_task_file_read(pid_t tid, const char *leaf, char *buffer, size_t size) {
    char path[64];
    size_t at = append(path, 0, sizeof path, "/proc/self/task/");
    at = append_decimal(path, at, sizeof path, tid);
    at = append(path, at, sizeof path, "/");
    append(path, at, sizeof path, leaf);
    buffer[0] = '\0';
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buffer, size - 1);
    close(fd);
    if (n <= 0) { buffer[0] = '\0'; return -1; }
    buffer[n] = '\0';
    return n;
}

void seam_thread_name(pid_t tid, char *name, size_t size) {
    ssize_t n = seam_task_file_read(tid, "comm", name, size);
    if (n <= 0) return;
    if (name[n - 1] == '\n') name[n - 1] = '\0';
}

/// Value of a "0x…" hex word (the kernel's %llx with the 0x prefix), 0 when malformed.
static uintptr_t parse_hex_word(const char *text, const char *end) {
    if (end - text < 3 || text[0] != '0' || text[1] != 'x') return 0;
    uintptr_t value = 0;
    for (const char *c = text + 2; c < end; c++) {
        int digit = *c >= '0' && *c <= '9' ? *c - '0' : *c >= 'a' && *c <= 'f' ? *c - 'a' + 10 : -1;
        if (digit < 0) return 0;
        value = value << 4 | (uintptr_t)digit;
    }
    return value;
}

int seam_task_syscall_pointers(pid_t tid, uintptr_t *sp, uintptr_t *pc) {
    char text[256];
    ssize_t n = seam_task_file_read(tid, "syscall", text, sizeof text);
    if (n <= 0) return -1;
    if (text[0] == 'r') return 0;   // "running": on a CPU or runnable, not stopped in the kernel
    // "<nr> <six arguments> <sp> <pc>" in a system call, "-1 <sp> <pc>" blocked elsewhere in
    // the kernel: the last two words are the user stack pointer and program counter.
    const char *words[9];
    const char *ends[9];
    int count = 0;
    for (ssize_t i = 0; i < n && count < 9;) {
        while (i < n && (text[i] == ' ' || text[i] == '\n')) i++;
        if (i >= n) break;
        words[count] = text + i;
        while (i < n && text[i] != ' ' && text[i] != '\n') i++;
        ends[count++] = text + i;
    }
    if (count != 3 && count != 9) return -1;
    *sp = parse_hex_word(words[count - 2], ends[count - 2]);
    *pc = parse_hex_word(words[count - 1], ends[count - 1]);
    return *sp != 0 && *pc != 0 ? 1 : -1;
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
