// Code the handler reaches through a direct call from another file.
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include "sigfx_report.h"

static char sigfx_line[128];

size_t sigfx_format_number(char *out, long value) {
    char digits[24];
    size_t n = 0;
    do { digits[n++] = (char)('0' + value % 10); value /= 10; } while (value > 0);
    for (size_t i = 0; i < n; i++) out[i] = digits[n - 1 - i];
    return n;
}

void sigfx_write_report(int sig) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    size_t n = sigfx_format_number(sigfx_line, sig);
    write(STDERR_FILENO, sigfx_line, n);
    snprintf(sigfx_line, sizeof sigfx_line, "%d", sig);       // expect: signal-handler-safety@5
    // di-lint:disable-next-line signal-handler-safety -- fixture: suppressed like any other finding
    fputs("crash\n", stderr);
}

// Not reachable from a handler: may use stdio.
void sigfx_print_summary(void) { printf("%s\n", sigfx_line); }
