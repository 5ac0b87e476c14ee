// Crash triggers for crash-demo that Swift cannot express: a real integer division and an
// uncaught C++ exception. Nothing else lives here; the demo otherwise uses CrashIntegration.
#ifndef CRASH_DEMO_SUPPORT_H
#define CRASH_DEMO_SUPPORT_H

#ifdef __cplusplus
extern "C" {
#endif

/// `dividend / divisor` as a hardware `idiv` (x86_64) or `sdiv` + check (aarch64): a zero
/// divisor raises SIGFPE on x86_64. Out of line, so the divisor is never known to the compiler.
int demo_divide(int dividend, int divisor);

/// Throws `std::runtime_error(what)` that nothing catches: std::terminate, then abort.
void demo_throw_runtime_error(const char *what);

#ifdef __cplusplus
}
#endif
#endif
