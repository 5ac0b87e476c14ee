// `#if defined(__STDC__)` is decided in every build: its #else (pre-standard C) is not read.
#include <signal.h>
#include <stdarg.h>
#include <syslog.h>
static void sigfx_logit(int level, const char *fmt, va_list args) { vsyslog(level, fmt, args); }  // expect: signal-handler-safety@69
static void sigfx_info(const char *fmt, ...) {
    va_list pvar;
#if defined(__STDC__)
    va_start(pvar, fmt);
#else
    va_start(pvar);
#endif
    sigfx_logit(LOG_INFO, fmt, pvar);
    va_end(pvar);
}
static void sigfx_stdc_hup(int sig) { sigfx_info("hangup"); }
void sigfx_stdc_install(void) { signal(SIGHUP, sigfx_stdc_hup); }
