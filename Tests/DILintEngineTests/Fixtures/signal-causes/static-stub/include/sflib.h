// Issue 29, cause 2: a vendored raw-syscall stub that sigcause_stub.c never includes.
static inline int exit(int status) { long r; __asm__ volatile ("syscall" : "=a"(r) : "0"(60), "D"(status)); return (int)r; }
