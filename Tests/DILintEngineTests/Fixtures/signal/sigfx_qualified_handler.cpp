// The handler a qualified name (`&SigfxKnown::onSignal`) registers in sigfx_qualified_install.cpp.
#include <cstdlib>

struct SigfxKnown {
    static void onSignal(int sig);
};

void SigfxKnown::onSignal(int sig) {
    void *p = std::malloc(8);  // expect: signal-handler-safety@15
    (void)p;
}
