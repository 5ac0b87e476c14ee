#include "crash_demo_support.h"

#include <stdexcept>

extern "C" __attribute__((noinline)) void demo_throw_runtime_error(const char *what) {
    throw std::runtime_error(what);
}
