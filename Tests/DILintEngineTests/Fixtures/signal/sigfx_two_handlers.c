// Two handlers reach the same unsafe call: it is reported once, with the first handler's chain,
// and names the other handler (the chain a maintainer reported may start there).
#include <signal.h>
#include <syslog.h>
static void sigfx_two_log(const char *m) { syslog(LOG_INFO, "%s", m); }  // expect: signal-handler-safety@44
static void sigfx_two_a(int s) { sigfx_two_log("a"); }
static void sigfx_two_b(int s) { sigfx_two_log("b"); }
void sigfx_two_install(void) { signal(SIGHUP, sigfx_two_a); signal(SIGTERM, sigfx_two_b); }
