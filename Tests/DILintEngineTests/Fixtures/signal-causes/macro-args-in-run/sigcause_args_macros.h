// Issue 29, cause 1b with arguments: macros of another file of the run (the handler's file does
// not include this header) whose callee is an argument: pasted (`log_##level`) or passed (`fn`).
#define ARGS_LOG_AT(level, ...) args_log_##level(__VA_ARGS__)
#define ARGS_CALL(fn, ...) fn(__VA_ARGS__)
