// Cause 2: handlers registered through wrappers that store their parameter into sa_handler or
// pass it to signal(), also through a wrapper of a wrapper.
#include <signal.h>
#include <stdlib.h>
#include <string.h>

typedef void (*sigfx_handler_fn)(int);

static void sigfx_install_signal(int sig, sigfx_handler_fn handler) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigaction(sig, &sa, NULL);
}

static void sigfx_install_plain(int sig, sigfx_handler_fn handler) { signal(sig, handler); }
static void sigfx_install_via(int sig, sigfx_handler_fn fn) { sigfx_install_signal(sig, fn); }

static void sigfx_alarm_handler(int sig) { (void)malloc(8); }  // expect: signal-handler-safety@50
static void sigfx_hup_handler(int sig) { exit(1); }  // expect: signal-handler-safety@42
static void sigfx_chld_handler(int sig) { (void)strdup("x"); }  // expect: signal-handler-safety@49
// not registered: passed to a function that does not install it
static void sigfx_not_a_handler(int sig) { (void)malloc(8); }
static void sigfx_remember(int sig, sigfx_handler_fn fn) { (void)sig; (void)fn; }

void sigfx_install_wrapped(void) {
    sigfx_install_signal(SIGALRM, sigfx_alarm_handler);
    sigfx_install_plain(SIGHUP, sigfx_hup_handler);
    sigfx_install_via(SIGCHLD, sigfx_chld_handler);
    sigfx_remember(SIGINT, sigfx_not_a_handler);
}
