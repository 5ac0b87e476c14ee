// A wrapper stores its parameter into sa_handler only where the parameter is null (SIG_DFL):
// its callers' functions are no handlers. Where the parameter is stored while non-null, they are.
#include <signal.h>
#include <stddef.h>
#include <syslog.h>
#include <unistd.h>
static int sigfx_wn_pipe[2];
static void (*sigfx_wn_funcs[64])(int);
static void sigfx_wn_trampoline(int sig) { write(sigfx_wn_pipe[1], &sig, sizeof sig); }

void sigfx_wn_set(int signo, void (*func)(int)) {
    struct sigaction sa;
    if (func)
        sa.sa_handler = sigfx_wn_trampoline;
    else
        sa.sa_handler = func;
    sigaction(signo, &sa, NULL);
    sigfx_wn_funcs[signo] = func;
}

void sigfx_wn_direct(int signo, void (*func)(int)) {
    struct sigaction sa;
    if (func == NULL)
        sa.sa_handler = SIG_DFL;
    else
        sa.sa_handler = func;
    sigaction(signo, &sa, NULL);
}

static void sigfx_wn_main_loop(int sig) { syslog(LOG_INFO, "ending"); }
static void sigfx_wn_handler(int sig) { syslog(LOG_INFO, "direct"); }  // expect: signal-handler-safety@41
void sigfx_wn_install(void) {
    sigfx_wn_set(SIGTERM, sigfx_wn_main_loop);
    sigfx_wn_direct(SIGHUP, sigfx_wn_handler);
}
