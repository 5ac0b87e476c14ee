// stdarg's va_start, va_copy and va_end are macros over compiler builtins, no calls, also in code
// read from the tokens (here under #if on a macro the parse does not know).
#include <signal.h>
#include <stdarg.h>
#include <unistd.h>

static void sigfx_va_note(int fd, const char *fmt, ...) {
#if SIGFX_VA_HAVE_COPY
    va_list args, copy;
    va_start(args, fmt);
    va_copy(copy, args);
    __va_copy(copy, args);
    va_end(copy);
    va_end(args);
#endif
    write(fd, fmt, 1);
}

static void sigfx_va_on_hup(int sig) { sigfx_va_note(2, "h"); }

void sigfx_va_install(void) { signal(SIGHUP, sigfx_va_on_hup); }
