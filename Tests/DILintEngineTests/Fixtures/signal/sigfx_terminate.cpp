// A C++ terminate handler is crash-time code too.
#include <atomic>
#include <exception>
#include <unistd.h>

static std::atomic<int> sigfx_terminating{0};

namespace sigfx {
struct Recorder {
    static void mark(int code) { sigfx_terminating.store(code, std::memory_order_relaxed); }
};
}

static void sigfx_on_terminate() {
    if (sigfx_terminating.exchange(1)) _exit(1);
    sigfx::Recorder::mark(2);
    throw 3;                                           // expect: signal-handler-safety@5
}

void sigfx_install_terminate() { std::set_terminate(sigfx_on_terminate); }
