// Cause 7: a local variable whose initializer calls a declared function with an argument from a
// header the parse cannot see keeps the variable but drops the call into a recovery node; the
// call is read from the initializer's tokens.
#include <signal.h>
#include <stdio.h>
#include "missing/sigfx_rec_types.h"

static char sigfx_rec_buf[64];

static void sigfx_rec_on_usr1(int sig) {
    sigfx_rec_state_t state = sigfx_rec_state;
    int n = sprintf(sigfx_rec_buf, "%d", state);  // expect: signal-handler-safety
    if (n > 0 && fputs(sigfx_rec_buf, stderr) < SIGFX_REC_LIMIT) {  // expect: signal-handler-safety
        n = 0;
    }
    (void)sig;
}

void sigfx_rec_install(void) { signal(SIGUSR1, sigfx_rec_on_usr1); }
