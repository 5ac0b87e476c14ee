// ARGS_LOG_AT and ARGS_CALL are defined only in sigcause_args_macros.h, which this file does not
// include: each is expanded at its call with the call's arguments (args_log_error, args_cleanup).
#include <signal.h>
static void on_hup(int s) { ARGS_LOG_AT(error, "hup %d", s); ARGS_CALL(args_cleanup, s); }
void install_hup(void) { signal(SIGHUP, on_hup); }
