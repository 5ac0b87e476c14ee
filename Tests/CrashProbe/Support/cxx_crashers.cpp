// C++ crashes: uncaught exceptions for the terminate monitor, and a fault in a C++ method
// whose mangled name the processor must demangle.
#include "crash_probe_support.h"
#include <cstdint>
#include <stdexcept>

extern "C" __attribute__((noinline)) void crash_probe_throw_cxx(void) {
    throw std::runtime_error("probe: uncaught runtime_error");
}

extern "C" __attribute__((noinline)) void crash_probe_throw_int(void) {
    throw 42;   // not a std::exception: there is no what()
}

namespace probe {
struct Crasher {
    __attribute__((noinline, optnone)) static void crash(int value) {
        *reinterpret_cast<volatile int *>(static_cast<uintptr_t>(0x30)) = value;
    }
};
}  // namespace probe

extern "C" void crash_probe_segv_in_cxx(void) {
    probe::Crasher::crash(7);
}
