// Placeholder for the capture layer until Sources/CrashRuntime/capture/ lands (the lead deletes
// this file when merging). It validates and copies the config like the real one and installs no
// signal handlers; its terminate handler only aborts.
#include "seam_capture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct {
    int installed;
    char *dump_directory;
    char **strings;
    size_t string_count;
    int catch_sigterm;
} g_placeholder;

static void placeholder_terminate(void) { abort(); }

static void free_copies(void) {
    for (size_t i = 0; i < g_placeholder.string_count; i++) free(g_placeholder.strings[i]);
    free(g_placeholder.strings);
    free(g_placeholder.dump_directory);
    memset(&g_placeholder, 0, sizeof g_placeholder);
}

static int copy_pairs(const char *const *keys, const char *const *values, size_t count,
                      const char *what, char *error, size_t error_size) {
    if (count > 0 && (!keys || !values)) {
        snprintf(error, error_size, "seam_capture_install: %s count %zu without arrays", what,
                 count);
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        if (!keys[i] || !values[i]) {
            snprintf(error, error_size, "seam_capture_install: %s entry %zu is NULL", what, i);
            return -1;
        }
        g_placeholder.strings[g_placeholder.string_count++] = strdup(keys[i]);
        g_placeholder.strings[g_placeholder.string_count++] = strdup(values[i]);
    }
    return 0;
}

int seam_capture_install(const seam_capture_config *config, char *error, size_t error_size) {
    if (g_placeholder.installed) {
        snprintf(error, error_size, "seam_capture_install: already installed");
        return -1;
    }
    if (!config || !config->dump_directory || !config->dump_directory[0]) {
        snprintf(error, error_size, "seam_capture_install: no dump directory");
        return -1;
    }
    if (mkdir(config->dump_directory, 0700) != 0 && errno != EEXIST) {
        snprintf(error, error_size, "seam_capture_install: cannot create %s: %s",
                 config->dump_directory, strerror(errno));
        return -1;
    }
    g_placeholder.strings =
        calloc(2 * (config->annotation_count + config->system_info_count) + 1, sizeof(char *));
    g_placeholder.dump_directory = strdup(config->dump_directory);
    if (copy_pairs(config->annotation_keys, config->annotation_values, config->annotation_count,
                   "annotation", error, error_size) != 0 ||
        copy_pairs(config->system_info_keys, config->system_info_values,
                   config->system_info_count, "system info", error, error_size) != 0) {
        free_copies();
        return -1;
    }
    g_placeholder.catch_sigterm = config->catch_sigterm;
    g_placeholder.installed = 1;
    return 0;
}

void seam_capture_uninstall(void) {
    if (g_placeholder.installed) free_copies();
}

int seam_capture_is_installed(void) { return g_placeholder.installed; }

seam_terminate_handler_fn seam_capture_terminate_handler(void) {
    return g_placeholder.installed ? placeholder_terminate : NULL;
}
