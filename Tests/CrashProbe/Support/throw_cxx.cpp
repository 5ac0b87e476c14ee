// An uncaught C++ exception, for the terminate monitor.
#include "crash_probe_support.h"
#include <stdexcept>

extern "C" __attribute__((noinline)) void crash_probe_throw_cxx(void) {
    throw std::runtime_error("probe: uncaught runtime_error");
}

extern "C" __attribute__((noinline)) void crash_probe_throw_int(void) {
    throw 42;   // not a std::exception: there is no what()
}
