// The C++ terminate monitor: records the uncaught exception's type (mangled, demangled at
// processing time) and what(), then lets the previous terminate handler print and abort.
// The abort raises SIGABRT, whose handler writes the dump including this exception.
#include "seam_capture.h"
#include "capture_state.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <exception>
#include <typeinfo>

namespace {

std::terminate_handler g_previous_terminate = nullptr;
bool g_terminate_installed = false;
std::atomic_flag g_terminating = ATOMIC_FLAG_INIT;

void copy_bounded(char *to, size_t size, const char *from) {
    if (from == nullptr) from = "";
    size_t length = std::strlen(from);
    if (length >= size) length = size - 1;
    std::memcpy(to, from, length);
    to[length] = '\0';
}

void record_current_exception() {
    std::type_info *type = abi::__cxa_current_exception_type();
    if (type == nullptr) return;
    copy_bounded(g_seam_exception_type, sizeof g_seam_exception_type, type->name());
    g_seam_exception_recorded = 1;
    try {
        throw;
    } catch (const std::exception &exception) {
        copy_bounded(g_seam_exception_what, sizeof g_seam_exception_what, exception.what());
        g_seam_exception_recorded = 2;
    } catch (...) {
    }
}

[[noreturn]] void on_terminate() {
    g_seam_terminate_called = 1;
    if (!g_terminating.test_and_set()) record_current_exception();
    std::terminate_handler previous = g_previous_terminate;
    if (previous != nullptr && previous != on_terminate) previous();
    std::abort();
}

}  // namespace

extern "C" void seam_terminate_monitor_install(void) {
    if (g_terminate_installed) return;
    g_previous_terminate = std::set_terminate(on_terminate);
    g_terminate_installed = true;
}

extern "C" void seam_terminate_monitor_uninstall(void) {
    if (!g_terminate_installed) return;
    if (std::get_terminate() == on_terminate) std::set_terminate(g_previous_terminate);
    g_terminate_installed = false;
}

extern "C" seam_terminate_handler_fn seam_capture_terminate_handler(void) {
    return g_terminate_installed ? on_terminate : nullptr;
}
