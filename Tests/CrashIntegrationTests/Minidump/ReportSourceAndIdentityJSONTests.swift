import Foundation
import XCTest
@testable import CrashIntegration

/// The report's new fields (source lines, inlined frames, distribution, release) go through the
/// hand-written writer exactly as `JSONEncoder` writes them, and decode back.
final class ReportSourceAndIdentityJSONTests: XCTestCase {
    func testNewFieldsMatchJSONEncoderByteForByte() throws {
        var report = CrashReport(
            dumpFile: "c.seamdump", dumpFormatVersion: 1, incomplete: false, incompleteReasons: [],
            crashTime: nil, handlerDurationNs: nil,
            process: .init(pid: 1, parentPid: nil, executable: nil, installTime: nil),
            signal: nil, exception: nil,
            crashedThread: .init(
                id: 1, name: nil, architecture: "x86_64", registers: [:],
                frames: [
                    .init(
                        index: 0, address: "0x10", trust: "context", module: "m", moduleOffset: "0x10",
                        function: "inner()",
                        mangledFunction: "$s1m5innerSiyF", functionOffset: nil, file: "/src/m.swift", line: 3,
                        column: 9, inlined: true),
                    .init(
                        index: 0, address: "0x10", trust: "context", module: "m", moduleOffset: "0x10",
                        function: "outer()",
                        mangledFunction: nil, functionOffset: 4, file: "/src/m.swift", line: 12, column: 5, inlined: nil
                    ),
                ]),
            threads: [], modules: [],
            system: ["os.distribution": "Debian GNU/Linux 12 (bookworm)", "os.release": "6.1.0"],
            annotations: ["release": "1.4.2"])
        report = report.withIdentity()
        XCTAssertEqual(report.os?.name, "Debian GNU/Linux 12 (bookworm)")
        XCTAssertEqual(report.os?.kernel, "6.1.0")
        XCTAssertEqual(report.app?.release, "1.4.2")

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        XCTAssertEqual(
            String(decoding: ReportJSON.data(report), as: UTF8.self),
            String(decoding: try encoder.encode(report), as: UTF8.self))
        XCTAssertEqual(try JSONDecoder().decode(CrashReport.self, from: ReportJSON.data(report)), report)
    }

    func testOSReleaseFields() {
        let fields = OSRelease.fields(
            """
            PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
            NAME='Debian GNU/Linux'
            # a comment
            VERSION_ID="12"
            ID=debian
            """)
        XCTAssertEqual(fields["PRETTY_NAME"], "Debian GNU/Linux 12 (bookworm)")
        XCTAssertEqual(fields["NAME"], "Debian GNU/Linux")
        XCTAssertEqual(fields["VERSION_ID"], "12")
        XCTAssertEqual(fields["ID"], "debian")
        XCTAssertEqual(fields.count, 4)
    }
}
