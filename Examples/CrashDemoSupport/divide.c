#include "crash_demo_support.h"

__attribute__((noinline)) int demo_divide(int dividend, int divisor) {
    return dividend / divisor;
}
