// Registration through a function-like macro whose body stores its parameter: the store is
// spelled in the #define, the handler is the macro's argument at each use.
#include <signal.h>
#include <syslog.h>

static void sigfx_macro_hup(int sig) { syslog(LOG_INFO, "hangup"); }  // expect: signal-handler-safety@40
static void sigfx_macro_term(int sig) { (void)sig; }

static void sigfx_macro_setup(void) {
    struct sigaction sa;
#define SIGFX_SIGNAL(s, handler) do { sa.sa_handler = handler; sigaction(s, &sa, 0); } while (0)
    SIGFX_SIGNAL(SIGHUP, sigfx_macro_hup);
    SIGFX_SIGNAL(SIGTERM, &sigfx_macro_term);
}
