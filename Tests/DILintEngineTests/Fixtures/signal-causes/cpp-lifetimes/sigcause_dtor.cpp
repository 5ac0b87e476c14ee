// Issue 29, cause 3: a destructor that frees, a constructor call clang could not resolve, an RAII
// temporary whose destructor writes, the implicit destructor of a class whose field has one.
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
struct Log { char *buf; Log(int) : buf(nullptr) {} ~Log() { free(buf); } };  // expect: signal-handler-safety@61
static void on_usr1(int) { Log l(1); }
struct Writer { void *p; Writer(int a, int b) : p(malloc(4)) {} };  // expect: signal-handler-safety@51
static void on_usr2(int) { Writer w(UNKNOWN_A, 2); }
struct Line { Line(const char *) {} ~Line() { fputs("\n", stderr); } Line &operator<<(const char *) { return *this; } };  // expect: signal-handler-safety@47
static void on_hup(int) { Line("App") << "reopen"; }
struct Closer { ~Closer() { fclose(stdout); } };  // expect: signal-handler-safety@29
struct Holder { int n; Closer c; };
static void on_term(int) { Holder h; (void)h; }
void install() { signal(SIGUSR1, on_usr1); signal(SIGUSR2, on_usr2); signal(SIGHUP, on_hup); signal(SIGTERM, on_term); }
