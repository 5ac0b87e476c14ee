// Issue 29, cause 1b: a macros header reached only through a generated header the run lacks.
#define APP_LOG(fmt, ...) app_log_write(APP_TAG, fmt, __VA_ARGS__)
#define APP_LOG_ERR(...) APP_LOG(__VA_ARGS__)
