// Fault-free memory reads. process_vm_readv on our own pid returns EFAULT for unmapped
// addresses; where it is unavailable (seccomp, old kernels) write(2) into a pipe does the
// same check in the kernel and the bytes are read back out of the pipe.
#define _GNU_SOURCE
#include "safe_memory.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static int g_use_pipe;
static int g_pipe[2] = {-1, -1};

static int read_with_vm_readv(const void *address, void *out, size_t length) {
    struct iovec local = {out, length};
    struct iovec remote = {(void *)address, length};
    long n = syscall(SYS_process_vm_readv, (long)getpid(), &local, 1L, &remote, 1L, 0L);
    return n == (long)length ? 0 : -1;
}

static int read_with_pipe(const void *address, void *out, size_t length) {
    const char *from = (const char *)address;
    char *to = (char *)out;
    while (length > 0) {
        size_t chunk = length > 4096 ? 4096 : length;
        ssize_t n = write(g_pipe[1], from, chunk);
        if (n <= 0) return -1;
        ssize_t got = 0;
        while (got < n) {
            ssize_t r = read(g_pipe[0], to + got, (size_t)(n - got));
            if (r <= 0) return -1;
            got += r;
        }
        from += n;
        to += n;
        length -= (size_t)n;
    }
    return 0;
}

int seam_safe_memory_prepare(void) {
    long probe = 0x5ea3, copy = 0;
    if (read_with_vm_readv(&probe, &copy, sizeof probe) == 0 && copy == probe) {
        g_use_pipe = 0;
        return 0;
    }
    if (g_pipe[0] < 0 && pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    g_use_pipe = 1;
    return read_with_pipe(&probe, &copy, sizeof probe) == 0 && copy == probe ? 0 : -1;
}

int seam_safe_read(const void *address, void *out, size_t length) {
    if (length == 0) return 0;
    if (address == NULL) return -1;
    return g_use_pipe ? read_with_pipe(address, out, length) : read_with_vm_readv(address, out, length);
}
