// Seam crash runtime: the C layer of the crash-integration library.
//
// The reporter object reads every service through a bridge table injected by the Swift
// integration (property injection, before install). While a codebase migrates, a reporter
// without a bridge falls back to the table the legacy DependencyContainer registered
// (seam_container_shared()). Nothing here is called from a signal handler: install copies
// what the capture layer needs into a seam_capture_config (see seam_capture.h).
#ifndef SEAM_CRASH_RUNTIME_H
#define SEAM_CRASH_RUNTIME_H

#include <stddef.h>
#include "seam_capture.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Lifecycle notification names, shared with Swift (Notification.Name.seamAppDidStart, ...).
#define SEAM_NOTIFICATION_APP_DID_START "seam.app.didStart"
#define SEAM_NOTIFICATION_APP_WILL_TERMINATE "seam.app.willTerminate"
/// Posted by the reporter after a successful install.
#define SEAM_NOTIFICATION_CRASH_REPORTER_DID_INSTALL "seam.crashReporter.didInstall"

/// Key/value string pairs owned by the table's provider; valid while its context lives.
typedef struct seam_string_pairs {
    const char *const *keys;
    const char *const *values;
    size_t count;
} seam_string_pairs;

/// Called when an observed notification is posted, with the `observer` given at registration.
typedef void (*seam_notification_fn)(void *observer);

/// The services of the bridge table, one line each, in table order:
///   X(return type, name, (parameters, the context first))
/// This list is the only place a C service is declared. It makes the table's fields below (Swift
/// sees them as the table's memberwise initializer) and the completeness check both the bridge
/// and the container's table pass (bridge_table.h). Each service also has a fallback accessor in
/// crash_reporter.c, written out by hand so di-lint sees it. Adding one: CONTRIBUTING.md.
#define SEAM_BRIDGE_SERVICES(X)                                                                  \
    /* Current wall-clock time, seconds since 1970. */                                           \
    X(double, now, (void *context))                                                              \
    /* Observes notification `name`; returns a token for remove_observer (never NULL). */        \
    X(void *, add_observer,                                                                      \
      (void *context, const char *name, seam_notification_fn callback, void *observer))          \
    X(void, remove_observer, (void *context, void *token))                                       \
    X(void, post_notification, (void *context, const char *name))                                \
    /* Annotations attached to every crash dump. */                                              \
    X(seam_string_pairs, annotations, (void *context))                                           \
    /* System and process information (OS, machine, process) for crash dumps. */                 \
    X(seam_string_pairs, system_info, (void *context))                                           \
    /* Directory for pending crash dumps. */                                                     \
    X(const char *, dump_directory, (void *context))                                             \
    /* The terminate-handler slot: install stores capture's handler, uninstall NULL. */          \
    X(void, set_terminate_handler, (void *context, seam_terminate_handler_fn handler))

#define SEAM_BRIDGE_FIELD(type, name, parameters) type(*name) parameters;

/// The services the C layer uses, as function pointers over an opaque context: one field per
/// entry of SEAM_BRIDGE_SERVICES. Every pointer must be set. Strings returned stay valid while
/// `context` lives.
typedef struct seam_crash_bridge {
    void *context;
    SEAM_BRIDGE_SERVICES(SEAM_BRIDGE_FIELD)
} seam_crash_bridge;

// MARK: - The container's C accessor (legacy fallback)

/// Registers the legacy container's table (copied); NULL unregisters.
/// Returns 0, or -1 when a function pointer is missing.
int seam_container_register(const seam_crash_bridge *table);
/// The table the container registered, or NULL when none is registered.
const seam_crash_bridge *seam_container_shared(void);

// MARK: - The reporter object

typedef struct seam_crash_reporter seam_crash_reporter;

typedef struct seam_crash_reporter_options {
    /// Directory holding the reporter's launch record (created 0700 when missing).
    /// The integration passes the dump directory here too.
    const char *state_directory;
    /// Non-zero to also catch SIGTERM.
    int catch_sigterm;
} seam_crash_reporter_options;

/// Creates a reporter and reads the previous launch's record from the state directory, so
/// crashed_last_launch and active_duration_since_last_crash are known before install.
/// Returns NULL with a reason in `error` when the state directory is unusable.
seam_crash_reporter *seam_crash_reporter_create(const seam_crash_reporter_options *options,
                                                char *error, size_t error_size);
/// Injects the bridge (copied). Must be called before install; NULL clears it (the reporter then
/// falls back to the container). Returns -1 with a reason when installed or the table is incomplete.
int seam_crash_reporter_set_bridge(seam_crash_reporter *reporter, const seam_crash_bridge *bridge,
                                   char *error, size_t error_size);
/// Reads services (bridge, else container), writes the launch record, observes lifecycle
/// notifications, installs capture and fills the terminate-handler slot.
/// Returns 0, or -1 with a reason (no bridge and no container, unwritable record, capture failure).
int seam_crash_reporter_install(seam_crash_reporter *reporter, char *error, size_t error_size);
/// Uninstalls capture, stops observing, records a clean exit, clears the terminate-handler slot.
void seam_crash_reporter_uninstall(seam_crash_reporter *reporter);
/// Uninstalls when needed and frees the reporter.
void seam_crash_reporter_destroy(seam_crash_reporter *reporter);

int seam_crash_reporter_is_installed(const seam_crash_reporter *reporter);
/// Non-zero when the previous launch started and ended without a clean exit.
int seam_crash_reporter_crashed_last_launch(const seam_crash_reporter *reporter);
/// Active seconds since the last crash (up to the crash when crashed_last_launch).
double seam_crash_reporter_active_duration_since_last_crash(const seam_crash_reporter *reporter);
/// Non-zero when the last install read its services from the container (no bridge set).
int seam_crash_reporter_used_container_fallback(const seam_crash_reporter *reporter);
/// The latest non-fatal problem (unreadable launch record, failed record write), or NULL.
const char *seam_crash_reporter_warning(const seam_crash_reporter *reporter);

#ifdef __cplusplus
}
#endif
#endif
