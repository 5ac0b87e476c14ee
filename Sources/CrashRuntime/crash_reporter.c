// The reporter object: receives the bridge by property injection before install and reads every
// service through it, falling back to the container's table only when no bridge is set.
#include "seam_crash_runtime.h"
#include "bridge_table.h"
#include "launch_record.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct seam_crash_reporter {
    /// The injected bridge (points at bridge_copy), or NULL to fall back to the container.
    const seam_crash_bridge *bridge;
    seam_crash_bridge bridge_copy;
    char state_directory[PATH_MAX];
    char record_path[PATH_MAX];
    int catch_sigterm;
    seam_previous_launch previous;
    seam_launch_record record;
    int installed;
    int used_container_fallback;
    void *did_start_token;
    void *will_terminate_token;
    char warning[512];
    pthread_mutex_t lock;
};

static _Atomic(seam_crash_reporter *) g_installed_reporter = NULL;
static atomic_int g_exit_hook_registered = 0;

// MARK: - Services: bridge first, the container only when no bridge is set
//
// One accessor per entry of SEAM_BRIDGE_SERVICES (seam_crash_runtime.h), written out rather than
// generated: di-lint sees (and CI checks) each fallback only where its tokens are in the file.

static int services_available(const seam_crash_reporter *r) {
    return r->bridge != NULL || seam_container_shared() != NULL;
}

static double service_now(const seam_crash_reporter *r) {
    return r->bridge ? r->bridge->now(r->bridge->context)
                     : seam_container_shared()->now(seam_container_shared()->context);
}

static void *service_observe(seam_crash_reporter *r, const char *name, seam_notification_fn fn) {
    return r->bridge ? r->bridge->add_observer(r->bridge->context, name, fn, r)
                     : seam_container_shared()->add_observer(seam_container_shared()->context,
                                                             name, fn, r);
}

static void service_stop_observing(const seam_crash_reporter *r, void *token) {
    if (r->bridge) {
        r->bridge->remove_observer(r->bridge->context, token);
    } else {
        seam_container_shared()->remove_observer(seam_container_shared()->context, token);
    }
}

static void service_post(const seam_crash_reporter *r, const char *name) {
    if (r->bridge) {
        r->bridge->post_notification(r->bridge->context, name);
    } else {
        seam_container_shared()->post_notification(seam_container_shared()->context, name);
    }
}

static seam_string_pairs service_annotations(const seam_crash_reporter *r) {
    return r->bridge ? r->bridge->annotations(r->bridge->context)
                     : seam_container_shared()->annotations(seam_container_shared()->context);
}

static seam_string_pairs service_system_info(const seam_crash_reporter *r) {
    return r->bridge ? r->bridge->system_info(r->bridge->context)
                     : seam_container_shared()->system_info(seam_container_shared()->context);
}

static const char *service_dump_directory(const seam_crash_reporter *r) {
    return r->bridge ? r->bridge->dump_directory(r->bridge->context)
                     : seam_container_shared()->dump_directory(seam_container_shared()->context);
}

static void service_set_terminate_handler(const seam_crash_reporter *r,
                                          seam_terminate_handler_fn handler) {
    if (r->bridge) {
        r->bridge->set_terminate_handler(r->bridge->context, handler);
    } else {
        seam_container_shared()->set_terminate_handler(seam_container_shared()->context, handler);
    }
}

// MARK: - Launch record (called with r->lock held)

static void save_record(seam_crash_reporter *r) {
    char reason[sizeof r->warning];
    if (seam_launch_record_write(r->record_path, &r->record, reason, sizeof reason) != 0)
        snprintf(r->warning, sizeof r->warning, "%s", reason);
}

static void end_active_period(seam_crash_reporter *r) {
    // A crash under way on another thread: this launch did not end cleanly, whatever this
    // thread does next (exit() while the crashing thread writes its dump).
    if (r->record.clean_exit || !services_available(r) || seam_capture_crash_in_progress()) return;
    double now = service_now(r);
    if (r->record.active_since > 0 && now > r->record.active_since)
        r->record.active_before += now - r->record.active_since;
    r->record.active_since = 0;
    r->record.clean_exit = 1;
    r->record.last_checkpoint = now;
    save_record(r);
}

// MARK: - Lifecycle observers

static void on_app_did_start(void *observer) {
    seam_crash_reporter *r = observer;
    pthread_mutex_lock(&r->lock);
    if (r->installed && services_available(r)) {
        double now = service_now(r);
        if (r->record.clean_exit) {  // started again after will-terminate
            r->record.clean_exit = 0;
            r->record.active_since = now;
        }
        r->record.last_checkpoint = now;
        save_record(r);
    }
    pthread_mutex_unlock(&r->lock);
}

static void on_app_will_terminate(void *observer) {
    seam_crash_reporter *r = observer;
    pthread_mutex_lock(&r->lock);
    if (r->installed) end_active_period(r);
    pthread_mutex_unlock(&r->lock);
}

/// exit() and a return from main are clean exits too; crashes never run atexit handlers.
static void on_process_exit(void) {
    seam_crash_reporter *r = atomic_load(&g_installed_reporter);
    if (!r) return;
    pthread_mutex_lock(&r->lock);
    if (r->installed) end_active_period(r);
    pthread_mutex_unlock(&r->lock);
}

// MARK: - Object

static int make_directories(char *path) {
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        int failed = mkdir(path, 0700) != 0 && errno != EEXIST;
        *p = '/';
        if (failed) return -1;
    }
    return mkdir(path, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

seam_crash_reporter *seam_crash_reporter_create(const seam_crash_reporter_options *options,
                                                char *error, size_t error_size) {
    if (!options || !options->state_directory || !options->state_directory[0]) {
        snprintf(error, error_size, "seam_crash_reporter_create: no state directory");
        return NULL;
    }
    seam_crash_reporter *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(error, error_size, "seam_crash_reporter_create: out of memory");
        return NULL;
    }
    int length = snprintf(r->record_path, sizeof r->record_path, "%s/%s",
                          options->state_directory, SEAM_LAUNCH_RECORD_NAME);
    if (length >= (int)sizeof r->record_path) {
        snprintf(error, error_size, "seam_crash_reporter_create: state directory path too long");
        free(r);
        return NULL;
    }
    snprintf(r->state_directory, sizeof r->state_directory, "%s", options->state_directory);
    if (make_directories(r->state_directory) != 0) {
        snprintf(error, error_size, "seam_crash_reporter_create: cannot create %s: %s",
                 r->state_directory, strerror(errno));
        free(r);
        return NULL;
    }
    r->catch_sigterm = options->catch_sigterm;
    seam_launch_record previous;
    int found = seam_launch_record_read(r->record_path, &previous, r->warning, sizeof r->warning);
    if (found == 1) r->previous = seam_launch_record_previous(&previous, r->state_directory);
    r->record.clean_exit = 1;
    r->record.active_before = r->previous.carried_active;
    pthread_mutex_init(&r->lock, NULL);
    return r;
}

int seam_crash_reporter_set_bridge(seam_crash_reporter *r, const seam_crash_bridge *bridge,
                                   char *error, size_t error_size) {
    int result = 0;
    pthread_mutex_lock(&r->lock);
    if (r->installed) {
        snprintf(error, error_size,
                 "seam_crash_reporter_set_bridge: reporter is installed; set the bridge before "
                 "install");
        result = -1;
    } else if (bridge && !seam_bridge_table_complete(bridge)) {
        snprintf(error, error_size, "seam_crash_reporter_set_bridge: a function pointer is NULL");
        result = -1;
    } else if (bridge) {
        r->bridge_copy = *bridge;
        r->bridge = &r->bridge_copy;
    } else {
        r->bridge = NULL;
    }
    pthread_mutex_unlock(&r->lock);
    return result;
}

/// Copies what the signal handler needs into a capture config and installs capture.
static int install_capture(seam_crash_reporter *r, char *error, size_t error_size) {
    seam_string_pairs annotations = service_annotations(r);
    seam_string_pairs system_info = service_system_info(r);
    seam_capture_config config = {
        .dump_directory = service_dump_directory(r),
        .annotation_keys = annotations.keys,
        .annotation_values = annotations.values,
        .annotation_count = annotations.count,
        .system_info_keys = system_info.keys,
        .system_info_values = system_info.values,
        .system_info_count = system_info.count,
        .catch_sigterm = r->catch_sigterm,
        .launch_record_path = r->record_path,
    };
    return seam_capture_install(&config, error, error_size);
}

int seam_crash_reporter_install(seam_crash_reporter *r, char *error, size_t error_size) {
    pthread_mutex_lock(&r->lock);
    const char *problem = NULL;
    if (r->installed) {
        problem = "seam_crash_reporter_install: already installed";
    } else if (!services_available(r)) {
        problem = "seam_crash_reporter_install: no bridge set (seam_crash_reporter_set_bridge) "
                  "and no container registered (seam_container_register)";
    } else if (atomic_load(&g_installed_reporter) != NULL) {
        problem = "seam_crash_reporter_install: another reporter is installed";
    }
    if (problem) {
        snprintf(error, error_size, "%s", problem);
        pthread_mutex_unlock(&r->lock);
        return -1;
    }
    r->used_container_fallback = r->bridge == NULL;
    double now = service_now(r);
    r->record.clean_exit = 0;
    r->record.active_since = now;
    r->record.last_checkpoint = now;
    if (seam_launch_record_write(r->record_path, &r->record, error, error_size) != 0 ||
        install_capture(r, error, error_size) != 0) {
        end_active_period(r);  // no capture: this launch must not count as crashed
        pthread_mutex_unlock(&r->lock);
        return -1;
    }
    service_set_terminate_handler(r, seam_capture_terminate_handler());
    r->installed = 1;
    atomic_store(&g_installed_reporter, r);
    if (atomic_exchange(&g_exit_hook_registered, 1) == 0) atexit(on_process_exit);
    pthread_mutex_unlock(&r->lock);

    // Outside the lock: observers may run on other threads and take it.
    r->did_start_token = service_observe(r, SEAM_NOTIFICATION_APP_DID_START, on_app_did_start);
    r->will_terminate_token =
        service_observe(r, SEAM_NOTIFICATION_APP_WILL_TERMINATE, on_app_will_terminate);
    service_post(r, SEAM_NOTIFICATION_CRASH_REPORTER_DID_INSTALL);
    return 0;
}

void seam_crash_reporter_uninstall(seam_crash_reporter *r) {
    pthread_mutex_lock(&r->lock);
    int was_installed = r->installed;
    r->installed = 0;
    pthread_mutex_unlock(&r->lock);
    if (!was_installed) return;

    if (services_available(r)) {
        if (r->did_start_token) service_stop_observing(r, r->did_start_token);
        if (r->will_terminate_token) service_stop_observing(r, r->will_terminate_token);
    }
    r->did_start_token = r->will_terminate_token = NULL;
    seam_capture_uninstall();

    pthread_mutex_lock(&r->lock);
    if (services_available(r)) service_set_terminate_handler(r, NULL);
    end_active_period(r);
    pthread_mutex_unlock(&r->lock);
    seam_crash_reporter *expected = r;
    atomic_compare_exchange_strong(&g_installed_reporter, &expected, NULL);
}

void seam_crash_reporter_destroy(seam_crash_reporter *r) {
    if (!r) return;
    seam_crash_reporter_uninstall(r);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

int seam_crash_reporter_is_installed(const seam_crash_reporter *r) { return r->installed; }

int seam_crash_reporter_crashed_last_launch(const seam_crash_reporter *r) {
    return r->previous.crashed;
}

double seam_crash_reporter_active_duration_since_last_crash(const seam_crash_reporter *r) {
    return r->previous.active_duration_since_last_crash;
}

int seam_crash_reporter_used_container_fallback(const seam_crash_reporter *r) {
    return r->used_container_fallback;
}

const char *seam_crash_reporter_warning(const seam_crash_reporter *r) {
    return r->warning[0] ? r->warning : NULL;
}
