// Issue 29, cause 2: a stand-in under an `#if` the parse can decide (the macro it tests is defined
// above it) is compiled in every build: a call binds to it, as the linker would, and what it calls
// is reported.
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#define NEED_COMPAT_VSNPRINTF 1
#ifdef NEED_COMPAT_VSNPRINTF
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap) {
    char *tmp = malloc(size);  // expect: signal-handler-safety@17
    (void)buf; (void)fmt; (void)ap;
    free(tmp);  // expect: signal-handler-safety@5
    return 0;
}
#endif
static char line[32];
static void say(const char *fmt, ...) { va_list ap; va_start(ap, fmt); vsnprintf(line, sizeof line, fmt, ap); va_end(ap); }
static void on_term(int s) { say("%d", s); write(2, line, 2); }
void install_term(void) { signal(SIGTERM, on_term); }
