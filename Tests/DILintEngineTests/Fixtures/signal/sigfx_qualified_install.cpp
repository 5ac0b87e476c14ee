// Cause 6: the class comes from a header the parse cannot see, so the store is lost from the AST;
// the token fallback reads the qualified name.
#include <csignal>
#include "missing/SigfxKnown.h"

void sigfx_install_known() {
    struct sigaction sa = {};
    sa.sa_handler = &SigfxKnown::onSignal;
    sigaction(SIGPIPE, &sa, nullptr);
}
