/// Functions POSIX does not list as async-signal-safe but that are safe in practice on
/// Linux/glibc (and a few on Darwin), each with the reason: pure computations on their arguments (no allocation, no
/// lock, no global state written), and system-call wrappers glibc implements as such.
/// `signal-handler-safety` accepts them unless its `strict` option is set.
enum SafeInPracticeFunctions {
    private static let pureCharacterClass = "a table lookup in the C locale's static table: no lock, no allocation"
    private static let pureConversion =
        "parses its argument with no allocation or lock (glibc reads the locale's static tables; errno is thread-local)"
    private static let pureString = "a pure string or memory computation on its arguments"

    static let reasons: [String: String] = {
        var r: [String: String] = [:]
        for f in [
            "isalnum", "isalpha", "isascii", "isblank", "iscntrl", "isdigit", "isgraph", "islower", "isprint",
            "ispunct", "isspace", "isupper", "isxdigit", "tolower", "toupper", "__ctype_b_loc",
            "__ctype_tolower_loc", "__ctype_toupper_loc",
        ] { r[f] = pureCharacterClass }
        for f in ["strtol", "strtoul", "strtoll", "strtoull", "strtoimax", "strtoumax", "atoi", "atol", "atoll"] {
            r[f] = pureConversion
        }
        for f in [
            "strcasecmp", "strncasecmp", "memmem", "memrchr", "rawmemchr", "strchrnul", "strsep", "bzero",
            "explicit_bzero", "bcmp", "bcopy", "index", "rindex", "strverscmp", "mempcpy", "__memcpy_chk",
            "__memmove_chk", "__memset_chk", "__strcpy_chk", "__strncpy_chk", "__strcat_chk", "__strncat_chk",
            "__stpcpy_chk", "__explicit_bzero_chk",
        ] { r[f] = pureString }
        for f in ["abs", "labs", "llabs", "div", "ldiv", "lldiv", "imaxabs", "imaxdiv", "ffsl", "ffsll"] {
            r[f] = "integer arithmetic on its arguments"
        }
        r["backtrace_symbols_fd"] =
            "writes the symbols to a file descriptor without malloc (glibc documents it for signal handlers; call backtrace() once at install so libgcc is loaded)"
        r["__stack_chk_fail"] = "compiler-inserted; aborts the process"
        r["getcontext"] = "saves registers into a caller-provided buffer (a system-call-free routine in glibc)"
        r["pthread_getspecific"] = "reads the calling thread's key slot: no lock, no allocation"
        r["sched_getcpu"] = "vDSO or a plain system call"
        r["gettimeofday"] = "vDSO or a plain system call"
        r["clock_getres"] = "a plain system call"
        r["ioctl"] = "a plain system call (glibc documents it AS-Safe; a system call on Darwin too)"
        r["getpagesize"] = "returns a constant glibc read at startup"
        r["sysconf"] =
            "glibc answers the limits crash code asks (page size, CPU count) from values read at startup or a system call"
        r["mach_error_string"] =
            "Darwin: indexes libsystem_kernel's constant error tables and returns a static string (mach_error_string_int): no lock, no allocation, no state written"
        r["event_active"] = "libevent documents it as safe to call from a signal handler when threading is enabled"
        r["evsig_handler"] = "libevent's own signal handler: writes one byte to its socket pair"
        return r
    }()
}
