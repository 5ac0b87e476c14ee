// Issue 29, cause 6: syslog runs only when sigaction (async-signal-safe) fails.
#include <signal.h>
#include <syslog.h>
#include <unistd.h>
static void on_alarm(int sig);
static void rearm(int sig) {
    struct sigaction sa;
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    if (sigaction(sig, &sa, 0) == -1) {
        syslog(LOG_ERR, "cannot re-arm %d", sig);  // expect: signal-handler-safety@9
    }
}
static void on_alarm(int sig) { rearm(sig); }
void install_alarm(void) { rearm(SIGALRM); }
