// Cause 3: handlers taken from a table: the struct array's handler field is stored into
// sa_handler, so every function in its initializer is a handler.
#include <signal.h>
#include <stdlib.h>

struct sigfx_signal {
    int signo;
    const char *name;
    void (*handler)(int);
};

static void sigfx_table_usr1(int sig) { abort(); }
static void sigfx_table_term(int sig) { exit(0); }  // expect: signal-handler-safety@41

static struct sigfx_signal sigfx_signals[] = {
    { SIGUSR1, "USR1", sigfx_table_usr1 },
    { SIGTERM, "TERM", sigfx_table_term },
    { 0, NULL, NULL },
};

void sigfx_install_table(void) {
    for (struct sigfx_signal *sig = sigfx_signals; sig->signo != 0; sig++) {
        struct sigaction sa = {0};
        sa.sa_handler = sig->handler;
        sigaction(sig->signo, &sa, NULL);
    }
}
