/// Names for Linux signal numbers and si_code values, for reports.
enum SignalNames {
    static func name(_ number: Int) -> String {
        let names = [
            1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
            7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2",
            13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM", 31: "SIGSYS",
        ]
        return names[number] ?? "SIG\(number)"
    }

    static func codeName(signal: Int, code: Int) -> String? {
        let general = [
            0: "SI_USER", 0x80: "SI_KERNEL", -1: "SI_QUEUE", -2: "SI_TIMER", -3: "SI_MESGQ",
            -4: "SI_ASYNCIO", -5: "SI_SIGIO", -6: "SI_TKILL",
        ]
        if code <= 0 || code == 0x80 { return general[code] }
        let specific: [Int: [String]] = [
            4: [
                "ILL_ILLOPC", "ILL_ILLOPN", "ILL_ILLADR", "ILL_ILLTRP", "ILL_PRVOPC", "ILL_PRVREG", "ILL_COPROC",
                "ILL_BADSTK",
            ],
            8: [
                "FPE_INTDIV", "FPE_INTOVF", "FPE_FLTDIV", "FPE_FLTOVF", "FPE_FLTUND", "FPE_FLTRES", "FPE_FLTINV",
                "FPE_FLTSUB",
            ],
            11: ["SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR", "SEGV_PKUERR"],
            7: ["BUS_ADRALN", "BUS_ADRERR", "BUS_OBJERR", "BUS_MCEERR_AR", "BUS_MCEERR_AO"],
            5: ["TRAP_BRKPT", "TRAP_TRACE", "TRAP_BRANCH", "TRAP_HWBKPT"],
        ]
        guard let list = specific[signal], code - 1 < list.count else { return nil }
        return list[code - 1]
    }
}
