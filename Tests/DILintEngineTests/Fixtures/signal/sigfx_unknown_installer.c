// An installer from a library header the run does not have (PostgreSQL's pqsignal): a call
// `f(SIGNAME, h)` to a function no file of the run defines registers `h`, and says so.
#include <postgres_like_missing.h>
#include <stdlib.h>
static void sigfx_ui_term(int sig) { (void)malloc(4); }  // expect: signal-handler-safety@44
static void sigfx_ui_not_handler(int v) { (void)malloc(4); }
void sigfx_ui_main(void) {
    sigfx_pqsignal(SIGTERM, sigfx_ui_term);
    siginterrupt(SIGINT, 1);
    sigfx_ui_call(sigfx_ui_not_handler, SIGINT);
}
