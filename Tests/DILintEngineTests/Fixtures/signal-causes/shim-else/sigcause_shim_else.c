// Issue 29, cause 2: a stand-in in the `#else` branch of a test on a macro the run does not define
// (no config.h): a call keeps libc's meaning, and the finding names the stand-in and its condition.
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef HAVE_SNPRINTF /* from config.h */
#define compat_used 0
#else
int snprintf(char *buf, size_t size, const char *fmt, ...) {
    char *tmp = malloc(size);
    (void)buf; (void)fmt;
    free(tmp);
    return 0;
}
#endif
static char line[32];
static void on_quit(int s) { int n = snprintf(line, sizeof line, "%d", s); write(2, line, (size_t)n); }  // expect: signal-handler-safety@38
void install_quit(void) { signal(SIGQUIT, on_quit); }
