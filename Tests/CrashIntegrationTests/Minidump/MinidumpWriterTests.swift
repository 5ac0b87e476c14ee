import CrashRuntime
import Foundation
import SeamTestSupport
import XCTest
@testable import CrashIntegration

/// Minidumps checked by independent readers: PyPI's `minidump` package and Debian's lldb.
final class MinidumpWriterTests: XCTestCase {
    private func write(_ bytes: [UInt8]) throws -> URL {
        let url = try makeProbeDirectory(self, "minidump").appendingPathComponent("test.dmp")
        try Data(bytes).write(to: url)
        return url
    }

    private func read(_ url: URL) throws -> [String: Any] {
        guard let read = try MinidumpReaders.pythonPackage(url) else {
            throw XCTSkip("PyPI minidump is not installed (scripts/bootstrap installs it)")
        }
        return read
    }

    func testEveryStreamOfASyntheticInputReadsBack() throws {
        let stack = (0..<256).map { UInt8($0) }
        let input = MinidumpInput(
            system: .init(
                architecture: .x86_64, cpuCount: 2, kernelRelease: "6.1.0-18-amd64", osDescription: "Linux 6.1.0 x86_64"
            ),
            processID: 4242, crashTime: 1_800_000_000,
            exception: .init(signal: 11, code: 1, address: 0x10, threadID: 7),
            threads: [
                .init(
                    id: 7, name: "main",
                    registers: ["rip": 0x5555_0000_1234, "rsp": 0x7ffc_0000_1000, "rbp": 0x7ffc_0000_1100],
                    stackStart: 0x7ffc_0000_1000, stackBytes: stack),
                .init(id: 8, name: "worker"),
            ],
            modules: [
                .init(path: "/usr/bin/demo", base: 0x5555_0000_0000, size: 0x20000, buildID: [0xde, 0xad, 0xbe, 0xef]),
                .init(path: "linux-vdso.so.1", base: 0x7fff_0000_0000, size: 0x2000, buildID: nil),
            ],
            memory: [.init(start: 0x6000_0000, bytes: [1, 2, 3])],
            procMaps: "5555000000-5555020000 r-xp 00000000 08:01 1 /usr/bin/demo\n", cpuInfo: "processor : 0\n",
            osRelease: "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n")
        let read = try read(try write(MinidumpWriter.bytes(for: input)))

        XCTAssertEqual(read["signature"] as? String, "PMDM", "the package spells the MDMP signature as it decodes it")
        XCTAssertEqual(
            Set(read["streams"] as? [String] ?? []),
            [
                "SystemInfoStream", "ThreadListStream", "MemoryListStream", "ModuleListStream", "ExceptionStream",
                "MiscInfoStream",
            ],
            "the standard streams; the Linux ones are user streams this reader skips")
        let system = try XCTUnwrap(read["system"] as? [String: Any])
        XCTAssertEqual(system["architecture"] as? String, "AMD64")
        XCTAssertEqual(system["platform"] as? String, "VER_PLATFORM_CRASHPAD_LINUX")
        XCTAssertEqual(system["cpus"] as? Int, 2)
        XCTAssertEqual(system["csd_version"] as? String, "Linux 6.1.0 x86_64")
        XCTAssertEqual(system["version"] as? [Int], [6, 1, 0])
        let exception = try XCTUnwrap(read["exception"] as? [String: Any])
        XCTAssertEqual(exception["code"] as? Int, 11)
        XCTAssertEqual(exception["flags"] as? Int, 1)
        XCTAssertEqual(exception["address"] as? Int, 0x10)
        XCTAssertEqual(exception["thread_id"] as? Int, 7)
        let threads = try XCTUnwrap(read["threads"] as? [[String: Any]])
        XCTAssertEqual(threads.map { $0["id"] as? Int }, [7, 8])
        XCTAssertEqual(threads[0]["rip"] as? Int, 0x5555_0000_1234)
        XCTAssertEqual(threads[0]["rsp"] as? Int, 0x7ffc_0000_1000)
        XCTAssertEqual(threads[0]["stack_start"] as? Int, 0x7ffc_0000_1000)
        XCTAssertEqual(threads[0]["stack_size"] as? Int, 256)
        XCTAssertEqual(threads[0]["context_flags"] as? Int, 0x100003, "control and integer (no segments given)")
        XCTAssertEqual(threads[1]["context_flags"] as? Int, 0x100000, "no registers: no register group claimed")
        let memory = try XCTUnwrap(read["memory"] as? [[String: Any]])
        XCTAssertEqual(memory.map { $0["start"] as? Int }, [0x7ffc_0000_1000, 0x6000_0000])
        XCTAssertEqual(memory.map { $0["size"] as? Int }, [256, 3])
        let modules = try XCTUnwrap(read["modules"] as? [[String: Any]])
        XCTAssertEqual(modules.map { $0["name"] as? String }, ["/usr/bin/demo", "linux-vdso.so.1"])
        XCTAssertEqual(modules[0]["base"] as? Int, 0x5555_0000_0000)
        XCTAssertEqual(modules[0]["size"] as? Int, 0x20000)
        XCTAssertEqual(modules[0]["cv_signature"] as? String, "BpEL")
        XCTAssertEqual(modules[0]["build_id"] as? String, "deadbeef")
        XCTAssertEqual(modules[1]["build_id"] as? String, "", "no build ID: no CodeView record")
    }

    func testRealCrashGivesAMinidumpBothReadersAccept() throws {
        let reportURL = try processedProbeCrash(self)
        let report = try loadReport(reportURL)
        let minidump = reportURL.deletingPathExtension().appendingPathExtension("dmp")
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: minidump.path)[.posixPermissions] as? Int, 0o600)

        if let read = try MinidumpReaders.pythonPackage(minidump) {
            let exception = try XCTUnwrap(read["exception"] as? [String: Any])
            XCTAssertEqual(exception["code"] as? Int, Int(SIGSEGV))
            XCTAssertEqual(exception["address"] as? Int, 0x10)
            XCTAssertEqual(exception["thread_id"].flatMap { $0 as? Int }.map(UInt64.init), report.crashedThread?.id)
            let probe = (read["modules"] as? [[String: Any]])?.first {
                ($0["name"] as? String)?.hasSuffix("/CrashProbe") == true
            }
            XCTAssertEqual(
                probe?["build_id"] as? String, report.modules.first { $0.path.hasSuffix("/CrashProbe") }?.buildId)
        } else {
            print("note: PyPI minidump not installed (scripts/bootstrap installs it); reader check skipped")
        }
        if let backtrace = try MinidumpReaders.lldbBacktrace(minidump) {
            let frame0 = backtrace.split(separator: "\n").first { $0.contains("frame #0") }
            XCTAssertTrue(
                frame0?.contains("crash_probe_segv") == true, "lldb names the crashing function:\n\(backtrace)")
        } else {
            print("note: \(MinidumpReaders.lldb) not installed (scripts/bootstrap installs it); lldb check skipped")
        }
    }

    func testDamagedDumpsStillGiveReadableMinidumps() throws {
        let root = try makeProbeDirectory(self, "minidump-damaged")
        let runner = CrashProbeRunner(dumpDirectory: root.appendingPathComponent("pending"))
        try assertCapturedCrash(try runner.run("segv"), signal: SIGSEGV, mode: "segv")
        let bytes = try [UInt8](Data(contentsOf: try XCTUnwrap(runner.dumpFiles().first)))
        var cuts = Array(stride(from: 0, to: bytes.count, by: max(1, bytes.count / 40)))
        cuts.append(bytes.count - 1)
        for cut in cuts {
            let minidump = MinidumpWriter.bytes(
                for: MinidumpInput(dump: IntermediateDump(bytes: Array(bytes.prefix(cut)))))
            XCTAssertEqual(Array(minidump.prefix(4)), Array("MDMP".utf8), "cut at \(cut)")
        }
        // One cut in the middle, read for real.
        let half = MinidumpWriter.bytes(
            for: MinidumpInput(dump: IntermediateDump(bytes: Array(bytes.prefix(bytes.count / 2)))))
        if let read = try MinidumpReaders.pythonPackage(try write(half)) {
            XCTAssertEqual(
                (read["exception"] as? [String: Any])?["code"] as? Int, Int(SIGSEGV), "the signal comes first in a dump"
            )
        }
    }

    func testStackWindowsFromTheCaptureReachTheMinidump() throws {
        // A dump laid out the way the capture records per-thread stacks for minidumps.
        var dump = DumpBytes()
        dump.map(UInt16(SEAM_DK_SIGNAL.rawValue)) { $0.integer(UInt16(SEAM_DK_SIGNAL_NUMBER.rawValue), 6) }
        dump.map(UInt16(SEAM_DK_CRASHED_THREAD.rawValue)) {
            $0.integer(UInt16(SEAM_DK_THREAD_ID.rawValue), 99)
            $0.string(UInt16(SEAM_DK_ARCHITECTURE.rawValue), "x86_64")
            $0.array(UInt16(SEAM_DK_REGISTERS.rawValue)) { list in
                for (name, value) in [("rip", UInt64(0x1000)), ("rsp", 0x7000)] {
                    list.element {
                        $0.string(UInt16(SEAM_DK_REGISTER_NAME.rawValue), name)
                        $0.integer(UInt16(SEAM_DK_REGISTER_VALUE.rawValue), value)
                    }
                }
            }
        }
        dump.array(UInt16(SEAM_DK_THREADS.rawValue)) { list in
            list.element {
                $0.integer(UInt16(SEAM_DK_THREAD_ID.rawValue), 99)
                $0.integer(UInt16(SEAM_DK_THREAD_CRASHED.rawValue), 1)
                $0.integer(42, 0x7000) // stack start
                $0.bytes(43, Array(repeating: 0xab, count: 64)) // stack bytes
            }
        }
        let input = MinidumpInput(dump: IntermediateDump(bytes: dump.finished))
        XCTAssertEqual(input.threads.count, 1)
        XCTAssertEqual(input.threads.first?.registers["rip"], 0x1000, "the crashed thread's registers")
        XCTAssertEqual(input.threads.first?.stackStart, 0x7000)
        XCTAssertEqual(input.threads.first?.stackBytes.count, 64)
        XCTAssertEqual(input.exception?.signal, 6)
        XCTAssertEqual(input.exception?.threadID, 99)
    }
}

/// Writes intermediate-dump bytes (docs/intermediate-dump-format.md) for adapter tests.
struct DumpBytes {
    private(set) var bytes: [UInt8] = Array("SEAMDMP1".utf8) + [1, 0, 0, 0]

    var finished: [UInt8] { bytes + [UInt8(SEAM_DUMP_END_DOCUMENT.rawValue)] }

    mutating func map(_ key: UInt16, _ body: (inout DumpBytes) -> Void) {
        command(UInt8(SEAM_DUMP_START_MAP.rawValue), key)
        body(&self)
        bytes.append(UInt8(SEAM_DUMP_END_MAP.rawValue))
    }

    mutating func array(_ key: UInt16, _ body: (inout DumpBytes) -> Void) {
        command(UInt8(SEAM_DUMP_START_ARRAY.rawValue), key)
        body(&self)
        bytes.append(UInt8(SEAM_DUMP_END_ARRAY.rawValue))
    }

    mutating func element(_ body: (inout DumpBytes) -> Void) { map(0, body) }

    mutating func integer(_ key: UInt16, _ value: UInt64) {
        self.bytes(key, withUnsafeBytes(of: value.littleEndian) { Array($0) })
    }

    mutating func string(_ key: UInt16, _ value: String) { self.bytes(key, Array(value.utf8)) }

    mutating func bytes(_ key: UInt16, _ value: [UInt8]) {
        command(UInt8(SEAM_DUMP_PROPERTY.rawValue), key)
        bytes += withUnsafeBytes(of: UInt32(value.count).littleEndian) { Array($0) }
        bytes += value
    }

    private mutating func command(_ tag: UInt8, _ key: UInt16) {
        bytes.append(tag)
        bytes += withUnsafeBytes(of: key.littleEndian) { Array($0) }
    }
}

/// The aarch64 context, read back by lldb (which reads Breakpad's ARM64 layout) on any host.
final class MinidumpARM64ContextTests: XCTestCase {
    func testLLDBReadsTheARM64Registers() throws {
        guard FileManager.default.isExecutableFile(atPath: MinidumpReaders.lldb) else {
            throw XCTSkip("\(MinidumpReaders.lldb) not installed (scripts/bootstrap installs it)")
        }
        let input = MinidumpInput(
            system: .init(
                architecture: .aarch64, cpuCount: 4, kernelRelease: "6.1.0", osDescription: "Linux 6.1.0 aarch64"),
            processID: 77, exception: .init(signal: 11, code: 1, address: 0x8, threadID: 5),
            threads: [
                .init(
                    id: 5,
                    registers: [
                        "pc": 0x4000_1234, "sp": 0x7fff_0000, "x0": 0x11, "x28": 0x28, "fp": 0x7fff_0100,
                        "lr": 0x4000_5678, "pstate": 0x6000_0000,
                    ])
            ])
        let url = try makeProbeDirectory(self, "arm64").appendingPathComponent("arm64.dmp")
        try Data(MinidumpWriter.bytes(for: input)).write(to: url)
        let run = try MinidumpReaders.run(
            MinidumpReaders.lldb,
            [
                "--no-lldbinit", "--batch", "-c", url.path,
                "-o", "register read pc sp x0 x28 fp lr",
            ], timeout: 120)
        let output = run.stdout + run.stderr
        for (name, value) in [
            ("pc", "0x0000000040001234"), ("sp", "0x000000007fff0000"), ("x0", "0x0000000000000011"),
            ("x28", "0x0000000000000028"), ("fp", "0x000000007fff0100"), ("lr", "0x0000000040005678"),
        ] {
            XCTAssertTrue(output.contains("\(name) = \(value)"), "\(name) = \(value) in:\n\(output)")
        }
    }
}
