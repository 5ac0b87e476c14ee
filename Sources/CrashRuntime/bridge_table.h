// Checks on a bridge table, generated from its service list (SEAM_BRIDGE_SERVICES).
#ifndef SEAM_BRIDGE_TABLE_H
#define SEAM_BRIDGE_TABLE_H

#include "seam_crash_runtime.h"

#define SEAM_BRIDGE_REQUIRE(type, name, parameters) if (!table->name) return 0;

/// Non-zero when every service pointer of `table` is set.
static inline int seam_bridge_table_complete(const seam_crash_bridge *table) {
    SEAM_BRIDGE_SERVICES(SEAM_BRIDGE_REQUIRE)
    return 1;
}

#endif
