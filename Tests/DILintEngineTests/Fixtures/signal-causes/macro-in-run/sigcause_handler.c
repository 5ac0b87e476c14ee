// APP_LOG_ERR is defined only in sigcause_macros.h, which this file does not include (it came
// through a generated header): the run's definition is expanded at the call.
#include <signal.h>
static void on_term(int s) { APP_LOG_ERR("term %d", s); }
void install_term(void) { signal(SIGTERM, on_term); }
