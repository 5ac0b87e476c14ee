// A C crash monitor: the handlers are found through sigaction (field assignment and designated
// initializer) and signal(); the calls are followed into sigfx_writer.c and sigfx_objc.m.
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include "sigfx_report.h"

static struct sigaction sigfx_previous;

static void sigfx_step_write(int sig) { sigfx_write_report(sig); }
static void sigfx_step_exit(int sig) { _exit(128 + sig); }
// Every value stored into the table is visible: both steps are followed.
static sigfx_step_fn sigfx_steps[] = { sigfx_step_write, sigfx_step_exit };

static void sigfx_on_crash(int sig, siginfo_t *info, void *context) {
    for (size_t i = 0; i < sizeof sigfx_steps / sizeof sigfx_steps[0]; i++) sigfx_steps[i](sig);
    sigfx_flush_objc();
    // the saved previous handler lives in a system struct: not followed
    if (sigfx_previous.sa_flags & SA_SIGINFO) sigfx_previous.sa_sigaction(sig, info, context);
}

static void sigfx_on_abort(int sig) {
    char *copy = malloc(16);                          // expect: signal-handler-safety@18
    (void)copy;
    raise(sig);
}

static void sigfx_on_term(int sig) {
    abort();
}

void sigfx_install(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = sigfx_on_crash;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, &sigfx_previous);
    struct sigaction abort_action = { .sa_handler = sigfx_on_abort };
    sigaction(SIGABRT, &abort_action, NULL);
    signal(SIGTERM, sigfx_on_term);
    char *setup = malloc(64);                         // install time: allowed
    free(setup);
}
