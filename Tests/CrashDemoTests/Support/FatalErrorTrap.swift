#if canImport(Glibc)
import Glibc
#endif

/// The signal `fatalError` dies of: its trap instruction is `ud2` (SIGILL) on x86_64 and `brk`
/// (SIGTRAP) on arm64.
#if arch(x86_64)
let fatalErrorTrap: (signal: Int32, name: String) = (SIGILL, "SIGILL")
#else
let fatalErrorTrap: (signal: Int32, name: String) = (SIGTRAP, "SIGTRAP")
#endif
