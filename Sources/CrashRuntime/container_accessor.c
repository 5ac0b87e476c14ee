// The legacy container's C accessor: the table the Swift DependencyContainer registers so C code
// without an injected bridge can still reach services while the codebase migrates.
#include "seam_crash_runtime.h"
#include "bridge_table.h"

#include <stdatomic.h>
#include <stdlib.h>

static _Atomic(const seam_crash_bridge *) g_container_table = NULL;

int seam_container_register(const seam_crash_bridge *table) {
    if (!table) {
        atomic_store(&g_container_table, NULL);
        return 0;
    }
    if (!seam_bridge_table_complete(table)) return -1;
    seam_crash_bridge *copy = malloc(sizeof *copy);
    if (!copy) return -1;
    *copy = *table;
    // Earlier tables are never freed: a caller that read the pointer a moment ago keeps a
    // valid table. Registrations happen once per container (a handful in tests).
    atomic_store(&g_container_table, copy);
    return 0;
}

const seam_crash_bridge *seam_container_shared(void) { return atomic_load(&g_container_table); }
