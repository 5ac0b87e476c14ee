// A registration read from the tokens (under #ifdef on a config macro) names the handler
// unqualified from inside its namespace: it is looked up there, as the compiler would.
#include <csignal>
#include <cstdio>
namespace sigfx_app {
static void SigfxNsHandler(int, siginfo_t *, void *) { printf("x"); }  // expect: signal-handler-safety@56
void sigfx_ns_install() {
#ifdef SIGFX_HAVE_SIGACTION
    struct sigaction sa;
    sa.sa_sigaction = &SigfxNsHandler;
    sigaction(SIGSEGV, &sa, nullptr);
#endif
}
}  // namespace sigfx_app
