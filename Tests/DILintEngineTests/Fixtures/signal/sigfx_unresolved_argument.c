// Cause 1: a call whose arguments name something from a header the parse cannot see drops out
// of the AST; its calls are read from the statement's tokens (and the finding says so).
#include <signal.h>
#include "missing/sigfx_logging.h"

static void sigfx_on_alarm(int sig) {
    sigfx_log_message(SIGFX_LOG_LEVEL_INFO, "alarm");  // expect: signal-handler-safety@5
    exit(sigfx_cleanup(sigfx_code_of(&SigfxTermError)));  // expect: signal-handler-safety@5; signal-handler-safety@10; signal-handler-safety@24
}

void sigfx_install_alarm(void) { signal(SIGALRM, sigfx_on_alarm); }
