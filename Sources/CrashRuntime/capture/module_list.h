// Loaded ELF modules with their build IDs: recorded at install (dl_iterate_phdr) and
// brought up to date at crash time from the dynamic linker's r_debug list.
#ifndef SEAM_MODULE_LIST_H
#define SEAM_MODULE_LIST_H

#include <stddef.h>
#include <stdint.h>

#define SEAM_MAX_MODULES 512
#define SEAM_MAX_BUILD_ID 64
#define SEAM_MODULE_PATH_POOL (128 * 1024)

typedef struct seam_module {
    uintptr_t bias;                   // runtime address minus ELF virtual address
    uintptr_t start, end;             // span of the PT_LOAD segments at run time
    uintptr_t exec_start, exec_end;   // span of the executable PT_LOAD segments
    const char *path;                 // points into a path pool owned by the collector
    uint8_t build_id_length;
    uint8_t build_id[SEAM_MAX_BUILD_ID];
    uint8_t source;                   // seam_dump_module_source
} seam_module;

typedef struct seam_module_set {
    size_t count;
    seam_module modules[SEAM_MAX_MODULES];
    size_t paths_used;
    char paths[SEAM_MODULE_PATH_POOL];
} seam_module_set;

/// Records the main executable's path and the modules loaded now. Not signal-safe.
size_t seam_modules_refresh(const char *executable_path);
/// Fills `out` with the modules loaded at this moment (async-signal-safe): the install-time
/// records for modules still present, new ones parsed from memory via r_debug.
void seam_modules_collect(seam_module_set *out);
/// The module whose executable segments contain address, or NULL.
const seam_module *seam_modules_find_exec(const seam_module_set *set, uintptr_t address);

#endif
