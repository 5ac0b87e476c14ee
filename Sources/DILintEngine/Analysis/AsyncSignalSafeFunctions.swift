/// Which external functions crash-time code may call (`signal-handler-safety`).
///
/// The base is POSIX's list of async-signal-safe functions (XSH 2.4.3, POSIX.1-2017) plus the
/// POSIX.1-2024 additions. It includes the string and memory functions POSIX.1-2008 TC2 (2016)
/// added: memcpy, memset, strlen and friends. `fork` is left out (POSIX.1-2024 dropped it; `_Fork` replaced it).
/// On top of that: raw system-call wrappers the kernels treat as plain syscalls, the errno
/// accessors behind the `errno` macro, and compiler builtins (atomics are assumed lock-free).
enum AsyncSignalSafeFunctions {
    static let posix: Set<String> = [
        "_Exit", "_exit", "abort", "accept", "access", "aio_error", "aio_return", "aio_suspend",
        "alarm", "bind", "cfgetispeed", "cfgetospeed", "cfsetispeed", "cfsetospeed", "chdir", "chmod", "chown",
        "clock_gettime", "close", "connect", "creat", "dup", "dup2", "execl", "execle", "execv", "execve",
        "faccessat", "fchdir", "fchmod", "fchmodat", "fchown", "fchownat", "fcntl", "fdatasync", "fexecve", "ffs",
        "fstat", "fstatat", "fsync", "ftruncate", "futimens", "getegid", "geteuid", "getgid",
        "getgroups", "getpeername", "getpgrp", "getpid", "getppid", "getsockname",
        "getsockopt", "getuid", "htonl", "htons", "kill", "link", "linkat", "listen", "longjmp", "lseek", "lstat",
        "memccpy", "memchr", "memcmp", "memcpy", "memmove", "memset", "mkdir", "mkdirat", "mkfifo",
        "mkfifoat", "mknod", "mknodat", "ntohl", "ntohs", "open", "openat", "pause", "pipe", "poll",
        "pselect", "pthread_kill", "pthread_self", "pthread_sigmask", "raise", "read",
        "readlink", "readlinkat", "recv", "recvfrom", "recvmsg", "rename", "renameat", "rmdir", "select",
        "sem_post", "send", "sendmsg", "sendto", "setgid", "setpgid", "setsid", "setsockopt", "setuid", "shutdown",
        "sigaction", "sigaddset", "sigdelset", "sigemptyset", "sigfillset", "sigismember", "siglongjmp", "signal",
        "sigpause", "sigpending", "sigprocmask", "sigqueue", "sigset", "sigsuspend", "sleep", "sockatmark",
        "socket", "socketpair", "stat", "stpcpy", "stpncpy", "strcat", "strchr", "strcmp", "strcpy", "strcspn",
        "strlen", "strncat", "strncmp", "strncpy", "strnlen", "strpbrk", "strrchr",
        "strspn", "strstr", "strtok_r", "symlink", "symlinkat", "tcdrain", "tcflow", "tcflush", "tcgetattr",
        "tcgetpgrp", "tcsendbreak", "tcsetattr", "tcsetpgrp", "time",
        "timer_getoverrun", "timer_gettime", "timer_settime", "times", "umask", "uname", "unlink", "unlinkat",
        "utime", "utimensat", "utimes", "wait", "waitpid", "wcpcpy", "wcpncpy", "wcscat", "wcschr", "wcscmp",
        "wcscpy", "wcscspn", "wcslen", "wcsncat", "wcsncmp", "wcsncpy", "wcsnlen", "wcspbrk", "wcsrchr", "wcsspn",
        "wcsstr", "wcstok", "wmemchr", "wmemcmp", "wmemcpy", "wmemmove", "wmemset", "write",
        // added by POSIX.1-2024 (Issue 8)
        "_Fork", "accept4", "dup3", "getresgid", "getresuid", "pipe2", "posix_close", "ppoll", "strlcat", "strlcpy",
        "tcgetwinsize", "tcsetwinsize", "wcslcat", "wcslcpy",
    ]

    /// Thin system-call wrappers (Linux, Darwin) that POSIX does not list but that take no lock and
    /// allocate nothing; the errno accessors behind `errno`; setjmp forms glibc documents AS-Safe.
    static let syscallWrappers: Set<String> = [
        "syscall", "sigaltstack", "gettid", "getentropy", "tgkill", "tkill", "prctl", "getrandom", "mmap", "munmap",
        "mprotect",
        "madvise", "nanosleep", "clock_nanosleep", "pread", "pwrite", "readv", "writev", "preadv", "pwritev",
        "process_vm_readv", "getrlimit", "getrusage", "sched_yield", "sigsetjmp", "setjmp", "_setjmp",
        "__sigsetjmp", "_longjmp", "sigreturn",
        "__errno_location", "__error", "__errno", "___errno",
        "mach_task_self", "mach_thread_self", "task_self_trap", "thread_get_state", "thread_suspend",
        "thread_resume", "vm_read_overwrite", "pthread_mach_thread_np",
        // Mach kernel calls (traps and MIG messages to the kernel): no user-space lock or malloc
        "mach_port_deallocate", "vm_deallocate", "task_threads", "thread_info", "task_info",
    ]

    /// Compiler builtins that become instructions: `__builtin_*` (including `__builtin_memcpy` and
    /// `__builtin_trap`), `__atomic_*`, `__sync_*`, `__c11_atomic_*`, C11 `atomic_*` generics,
    /// `ptrauth_*` (Apple's <ptrauth.h> macros over `__builtin_ptrauth_*`), Darwin's
    /// `arm_thread_state64_get_*`/`_set_*` register accessors (macros over those), and
    /// C++ `std::atomic` members. Atomics on types that are not lock-free would take a lock; the
    /// rule assumes the lock-free ones crash code uses.
    static let builtinPrefixes = [
        "__builtin_", "__atomic_", "__sync_", "__c11_atomic_", "atomic_", "ptrauth_",
        "arm_thread_state64_get_", "arm_thread_state64_set_",
        "std::atomic", "std::__atomic_base", "std::atomic_flag",
    ]

    /// What a std::terminate handler may call to read the exception that is ending the process
    /// (terminate handlers only; together with a rethrow inside `try`).
    static let exceptionInspection: Set<String> = [
        "__cxa_current_exception_type", "__cxa_get_globals_fast", "std::type_info::name", "std::exception::what",
        "std::uncaught_exceptions",
    ]

    /// Well-known unsafe functions, with why (makes the report say more than "not on the list").
    static let reasons: [String: String] = {
        var r: [String: String] = [:]
        for f in [
            "malloc", "calloc", "realloc", "free", "posix_memalign", "aligned_alloc", "valloc", "strdup",
            "strndup", "asprintf", "vasprintf", "operator new", "operator delete",
        ] { r[f] = "allocates" }
        for f in [
            "printf", "fprintf", "vprintf", "vfprintf", "puts", "fputs", "fputc", "putc", "putchar", "fwrite",
            "fflush", "fopen", "fclose", "perror", "sprintf", "snprintf", "vsnprintf", "vsprintf", "sscanf",
        ] {
            r[f] = "stdio and formatting take locks and may allocate"
        }
        for f in [
            "pthread_mutex_lock", "pthread_mutex_trylock", "pthread_mutex_unlock", "pthread_rwlock_rdlock",
            "pthread_rwlock_wrlock", "pthread_cond_wait", "pthread_once", "os_unfair_lock_lock", "OSSpinLockLock",
        ] {
            r[f] = "takes a lock the interrupted thread may hold"
        }
        for f in ["exit", "atexit"] { r[f] = "runs atexit handlers and flushes stdio; use _exit" }
        for f in ["syslog", "vsyslog", "openlog", "NSLog", "NSLogv", "os_log"] {
            r[f] = "logging allocates and takes locks"
        }
        for f in ["dispatch_async", "dispatch_sync", "dispatch_once", "dispatch_after"] {
            r[f] = "GCD allocates and takes locks"
        }
        for f in [
            "backtrace", "backtrace_symbols", "backtrace_symbols_fd", "_Unwind_Backtrace", "dladdr", "dlopen", "dlsym",
        ] {
            r[f] = "may take the loader lock or allocate on first use"
        }
        for f in ["__assert_fail", "__assert_rtn", "assert"] { r[f] = "assert prints through stdio and allocates" }
        for f in ["localtime", "localtime_r", "gmtime", "strftime", "mktime", "getenv", "setenv", "strerror"] {
            r[f] = "reads locale or environment state under a lock"
        }
        return r
    }()

    /// Whether `name` (unqualified for C, qualified for C++) may be called at crash time.
    static func isSafe(_ name: String, allow: [String]) -> Bool {
        if posix.contains(name) || syscallWrappers.contains(name) { return true }
        if builtinPrefixes.contains(where: name.hasPrefix) { return true }
        return allow.contains { pattern in
            pattern.hasSuffix("*") ? name.hasPrefix(String(pattern.dropLast())) : pattern == name
        }
    }

    /// Names the Swift compiler gives to Swift functions: `$s…` (Swift 5), `$S…` (4.2), `_T0…` (4.0).
    static func isSwiftMangled(_ name: String) -> Bool {
        ["$s", "$S", "_$s", "_$S", "_T0", "$e"].contains(where: name.hasPrefix)
    }
}
