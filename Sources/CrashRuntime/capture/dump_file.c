// Pending dump files: see dump_file.h. Names are formatted by hand (no snprintf) so this also
// runs inside a signal handler.
#define _GNU_SOURCE
#include "dump_file.h"
#include "capture_state.h"
#include "seam_dump_format.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static size_t put_text(char *to, size_t at, size_t size, const char *text) {
    while (*text && at + 1 < size) to[at++] = *text++;
    if (at < size) to[at] = '\0';
    return at;
}

static size_t put_number(char *to, size_t at, size_t size, uint64_t value, unsigned base, int width) {
    char digits[24];
    int n = 0;
    do { digits[n++] = "0123456789abcdef"[value % base]; value /= base; } while ((value > 0 || n < width) && n < 23);
    while (n > 0 && at + 1 < size) to[at++] = digits[--n];
    if (at < size) to[at] = '\0';
    return at;
}

/// "<directory>/<prefix><time>-<pid>-<nonce><suffix>"; 0 when it does not fit.
static int format_name(char *out, size_t size, const char *directory, const char *prefix, uint64_t now,
                       uint32_t nonce, const char *suffix) {
    size_t at = put_text(out, 0, size, directory);
    at = put_text(out, at, size, "/");
    at = put_text(out, at, size, prefix);
    at = put_number(out, at, size, now, 10, 1);
    at = put_text(out, at, size, "-");
    at = put_number(out, at, size, (uint64_t)getpid(), 10, 1);
    at = put_text(out, at, size, "-");
    at = put_number(out, at, size, nonce, 16, 8);
    at = put_text(out, at, size, suffix);
    return at + 1 < size;
}

static void write_entries(seam_dump_writer *w, uint16_t key, const seam_entry *entries, size_t count) {
    seam_writer_start_array(w, key);
    for (size_t i = 0; i < count; i++) {
        seam_writer_start_map(w, SEAM_DK_NONE);
        seam_writer_string(w, SEAM_DK_ENTRY_KEY, entries[i].key, SEAM_STRING_POOL);
        seam_writer_string(w, SEAM_DK_ENTRY_VALUE, entries[i].value, SEAM_STRING_POOL);
        seam_writer_end(w);
    }
    seam_writer_end(w);
}

void seam_write_prelude(seam_dump_writer *w) {
    seam_writer_u64(w, SEAM_DK_PID, (uint64_t)getpid());
    seam_writer_u64(w, SEAM_DK_INSTALL_TIME_SEC, (uint64_t)g_seam_state.install_time);
    seam_writer_start_map(w, SEAM_DK_PROCESS);
    seam_writer_string(w, SEAM_DK_PROCESS_EXECUTABLE, g_seam_state.executable, SEAM_PATH_MAX);
    seam_writer_u64(w, SEAM_DK_PROCESS_PARENT_PID, (uint64_t)getppid());
    seam_writer_end(w);
    write_entries(w, SEAM_DK_SYSTEM_INFO, g_seam_state.system_info, g_seam_state.system_info_count);
    write_entries(w, SEAM_DK_ANNOTATIONS, g_seam_state.annotations, g_seam_state.annotation_count);
}

/// Reserves room after the prelude without changing the file's size, halving on refusal.
static size_t reserve_space(int fd, off_t from) {
    for (size_t size = SEAM_DUMP_RESERVE_MAX; size >= SEAM_DUMP_RESERVE_MIN; size /= 2) {
        // The system call itself (what glibc's fallocate wraps): callable in a signal handler.
        if (syscall(SYS_fallocate, (long)fd, (long)FALLOC_FL_KEEP_SIZE, (long)from, (long)size) == 0) return size;
        if (errno != ENOSPC && errno != EINTR) return 0;   // not supported here
    }
    return 0;
}

int seam_dump_file_create(const char *directory, char *path, size_t path_size, seam_dump_writer *w,
                          size_t *reserved) {
    char hidden[SEAM_PATH_MAX];
    *reserved = 0;
    for (int attempt = 0; attempt < 16; attempt++) {
        uint32_t nonce = 0;
        if (getrandom(&nonce, sizeof nonce, GRND_NONBLOCK) != (ssize_t)sizeof nonce) {
            nonce = (uint32_t)seam_monotonic_ns() ^ (uint32_t)attempt;
        }
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        if (!format_name(path, path_size, directory, "", (uint64_t)now.tv_sec, nonce, ".seamdump") ||
            !format_name(hidden, sizeof hidden, directory, ".", (uint64_t)now.tv_sec, nonce, ".creating")) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = open(hidden, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0) {
            if (errno == EEXIST) continue;
            return -1;
        }
        // Held until the process dies: processors skip dumps whose lock is still held.
        if (syscall(SYS_flock, (long)fd, (long)(LOCK_EX | LOCK_NB)) != 0) {
            int saved = errno;
            close(fd);
            unlink(hidden);
            errno = saved;
            return -1;
        }
        seam_writer_begin(w, fd);
        seam_write_prelude(w);
        seam_writer_flush(w);
        *reserved = reserve_space(fd, (off_t)w->written);
        int linked = link(hidden, path);
        int saved = errno;
        unlink(hidden);
        if (linked == 0) return fd;
        close(fd);
        if (saved != EEXIST) {
            errno = saved;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}
