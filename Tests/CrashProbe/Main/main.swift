// CrashProbe: a test-only executable that installs crash capture directly and crashes on
// command. Usage: CrashProbe <dump-directory> <mode>. Prints "installed <dump path>" first.
import CrashProbeSupport
import CrashRuntime
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

@inline(never)
func crashInSwift(_ values: [Int?]) -> Int {
    values[0]! + 1
}

@inline(never)
func asyncLeaf() async {
    await Task.yield() // from here on the function runs as a resumed partial function
    crash_probe_segv()
}

@inline(never)
func asyncMiddle() async {
    await asyncLeaf()
    print("asyncMiddle survived")
}

@inline(never)
func asyncOuter() async {
    await asyncMiddle()
    print("asyncOuter survived")
}

var installMicroseconds: UInt64 = 0

func install(directory: String, mode: String) {
    var error = [CChar](repeating: 0, count: 512)
    let keys = ["probe.mode"], values = [mode]
    let systemKeys = ["os", "probe.pid"], systemValues = ["linux", String(getpid())]
    let status = withCStrings(keys + values + systemKeys + systemValues) { all -> Int32 in
        let base = all.baseAddress!
        var config = seam_capture_config()
        config.annotation_keys = UnsafePointer(base)
        config.annotation_values = UnsafePointer(base + 1)
        config.annotation_count = 1
        config.system_info_keys = UnsafePointer(base + 2)
        config.system_info_values = UnsafePointer(base + 4)
        config.system_info_count = 2
        config.catch_sigterm = mode == "term" ? 1 : 0 // "term-uncaught" leaves SIGTERM alone
        return directory.withCString { dir in
            config.dump_directory = dir
            let started = DispatchTime.now().uptimeNanoseconds
            defer { installMicroseconds = (DispatchTime.now().uptimeNanoseconds - started) / 1000 }
            return seam_capture_install(&config, &error, error.count)
        }
    }
    guard status == 0 else {
        fputs("CrashProbe: install failed: \(String(cString: error))\n", stderr)
        exit(2)
    }
    print("installed \(String(cString: seam_capture_dump_path())) in \(installMicroseconds) us")
    fflush(stdout)
}

/// Calls body with C copies of strings laid out as consecutive pointers, alive for the call.
func withCStrings<R>(_ strings: [String], _ body: (UnsafeMutableBufferPointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    var pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeMutableBufferPointer { body($0) }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    fputs("usage: CrashProbe <dump-directory> <mode>\n", stderr)
    exit(2)
}
// "raw-<mode>" crashes the same way without installing capture (for comparisons).
let mode = arguments[2].hasPrefix("raw-") ? String(arguments[2].dropFirst(4)) : arguments[2]
// install-race installs capture itself; overflow-preexisting-thread starts its thread first.
if mode == "overflow-preexisting-thread" && crash_probe_start_thread_waiting_to_overflow() != 0 {
    fputs("CrashProbe: could not start the thread\n", stderr); exit(4)
}
if !arguments[2].hasPrefix("raw-") && mode != "install-race" { install(directory: arguments[1], mode: mode) }

switch mode {
case "segv": crash_probe_segv()
case "bus": crash_probe_bus()
case "ill": crash_probe_ill()
case "fpe": crash_probe_fpe()
case "abrt": crash_probe_abort()
case "trap": crash_probe_trap()
case "term", "term-uncaught": crash_probe_term()
case "cxx": crash_probe_throw_cxx()
case "cxx-int": crash_probe_throw_int()
case "cxx-segv": crash_probe_segv_in_cxx()
case "swift": print(crashInSwift([nil]))
case "threads": crash_probe_threads(8)
case "bad-stack-pointer": crash_probe_bad_stack_pointer()
case "blocked-thread": crash_probe_blocked_thread_then_segv()
case "overflow": print(crash_probe_overflow(0))
case "dlopen-segv":
    // A library loaded after install must still be listed: found through r_debug at crash time.
    guard dlopen("libz.so.1", RTLD_NOW) != nil else { fputs("CrashProbe: dlopen libz failed\n", stderr); exit(4) }
    crash_probe_segv()
case "nested":
    seam_capture_set_handler_hook_for_testing(crash_probe_hook_fault)
    crash_probe_abort()
case "nested-segv":
    seam_capture_set_handler_hook_for_testing(crash_probe_hook_fault)
    crash_probe_segv()
case "allocate-in-handler":
    seam_capture_set_handler_hook_for_testing(crash_probe_hook_allocate)
    crash_probe_segv()
case "fill-disk-segv":
    // The disk fills after install: the space reserved at install must still take the dump.
    guard crash_probe_fill_disk(arguments[1]) == 0 else {
        fputs("CrashProbe: could not fill the disk\n", stderr); exit(4)
    }
    crash_probe_segv()
case "fork-segv":
    crash_probe_fork_child_waits_parent_crashes()
case "fork-child-segv":
    exit(crash_probe_fork_child_crashes() == SIGSEGV ? 0 : 5)
case "overflow-thread":
    // A thread created after install overflows its stack (8 MiB default).
    var thread = pthread_t()
    pthread_create(
        &thread, nil,
        { _ in
            print(crash_probe_overflow(0)); return nil
        }, nil)
    pthread_join(thread, nil)
case "overflow-preexisting-thread":
    // A thread started before install, blocked in read() while install ran, overflows its stack.
    crash_probe_tell_thread_to_overflow()
case "install-race":
    // CRASH_PROBE_INSTALLS installs (default 200) while threads sleep and wait in tight loops.
    let installs = getenv("CRASH_PROBE_INSTALLS").flatMap { Int32(String(cString: $0)) } ?? 200
    let interrupted = crash_probe_install_race(arguments[1], installs)
    exit(interrupted == 0 ? 0 : interrupted < 0 ? 4 : 6)
case "async-segv":
    // A crash inside nested Swift async functions: the callers are in async contexts.
    crash_probe_tripwire_disable()
    Task.detached { await asyncOuter() }
    // The capture's context request interrupts this thread's sleep (EINTR) when the task
    // crashes: wait out the whole time in slices so the crash, not this thread, ends the probe.
    for _ in 0..<100 { usleep(100_000) }
case "sigkill":
    // Killed without any handler running (as by the out-of-memory killer).
    kill(getpid(), SIGKILL)
case "wait":
    // Stays alive (its dump file locked and empty) until standard input closes.
    while getchar() != EOF {}
    exit(0)
case "exit":
    print("allocations seen: \(crash_probe_allocation_count())")
    seam_capture_uninstall()
    exit(0)
default:
    fputs("CrashProbe: unknown mode \(mode)\n", stderr)
    exit(2)
}
fputs("CrashProbe: survived mode \(mode)\n", stderr)
exit(3)
