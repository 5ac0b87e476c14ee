// Issue 29, cause 5: the handler is under #if on a macro the parse does not know, so its body is
// read from the tokens; the branches of the inner #if each close a brace, and read together they
// would close the handler before its call of sigcause_log. One branch is read, the first.
#include <signal.h>
#include <stdlib.h>
static int running;
void sigcause_log(const char *m) { void *p = malloc(1); (void)p; }  // expect: signal-handler-safety@46
#if SIGCAUSE_HAVE_HANDLER
static void on_term(int sig) {
    if (running) {
        running = 0;
#if SIGCAUSE_STYLE_A
    }
#else
    } /* the other style */
#endif
    sigcause_log("term");
}
void install(void) { signal(SIGTERM, on_term); }
#endif
