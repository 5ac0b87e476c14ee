#include "seam_crash_runtime.h"
