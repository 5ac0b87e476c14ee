import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Several processes on one store: started together, and processing passes killed half-way.
final class SharedStoreTests: XCTestCase {
    func testTwoProcessesStartedTogetherOnOneStoreBothInstall() throws {
        let store = DemoStoreDirectory(self)
        let failures = Locked<[String]>([])
        for _ in 0..<100 {
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                do {
                    let run = try CrashDemoProcess.run(["--store", store.path, "launch"], backtracer: .disabled)
                    if !run.exitedCleanly { failures.withLock { $0.append(run.summary) } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        XCTAssertEqual(failures.value, [], "every start installs")
        let leftovers = store.regularFiles(in: store.dumps).filter { $0.lastPathComponent.hasSuffix(".tmp") }
        XCTAssertEqual(leftovers, [], "no temporary launch records are left")
    }

    func testProcessingPassesKilledAtRandomPointsLoseAndDuplicateNothing() throws {
        let store = DemoStoreDirectory(self)
        let crash = try CrashDemoProcess.run(["--store", store.path, "crash", "segv"], backtracer: .disabled)
        XCTAssertEqual(crash.diedOfSignal, SIGSEGV, crash.summary)
        let original = try XCTUnwrap(store.dumpFiles.first)
        let count = 150
        var names: Set<String> = []
        for i in 0..<count {
            let name = String(format: "copy-%03d.seamdump", i)
            try FileManager.default.copyItem(at: original, to: store.dumps.appendingPathComponent(name))
            names.insert(name)
        }
        try FileManager.default.removeItem(at: original)

        var announced: [String] = []
        var killedPasses = 0
        for _ in 0..<20 {
            let run = try CrashDemoProcess.run(
                ["--store", store.path, "launch"], backtracer: .disabled,
                killAfter: Double.random(in: 0.02...0.6))
            if run.diedOfSignal == SIGKILL { killedPasses += 1 }
            announced += try run.reports().compactMap(\.dumpFile)
        }
        let last = try CrashDemoProcess.run(["--store", store.path, "launch"], backtracer: .disabled)
        XCTAssertTrue(last.exitedCleanly, last.summary)
        announced += try last.reports().compactMap(\.dumpFile)
        XCTAssertGreaterThan(killedPasses, 0, "some passes were killed mid-way")

        let copies = announced.filter { $0.hasPrefix("copy-") }
        XCTAssertEqual(copies.count, Set(copies).count, "no report announced twice")
        let onDisk = Set(store.reportFiles.map { $0.deletingPathExtension().lastPathComponent + ".seamdump" })
        XCTAssertEqual(onDisk.intersection(names), names, "every dump has its report")
        XCTAssertTrue(Set(copies).isSubset(of: names))
        // A killed launch had installed capture: its own dump is reported as an incomplete launch.
        let hidden = store.regularFiles(in: store.reports).filter { $0.lastPathComponent.hasPrefix(".") }
        XCTAssertEqual(hidden, [], "no temporaries are left")
        let claimed = store.dumps.appendingPathComponent("claimed")
        XCTAssertEqual(store.files(in: claimed, endingWith: ".seamdump"), [], "no claimed dump is left")
        XCTAssertEqual(store.dumpFiles, [], "no pending dump is left")
    }
}

/// A value shared between threads of a test.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.lock(); defer { lock.unlock() }; return stored }
    func withLock(_ body: (inout Value) -> Void) { lock.lock(); body(&stored); lock.unlock() }
}
