import CrashIntegration
import CrashRuntime
import Foundation
import XCTest

/// The reader against damaged input: every truncation of a real dump, random byte flips, and
/// hand-made malformed streams. It must never crash, must flag damage, and must keep the
/// tree read before the damage.
final class DumpReaderTests: XCTestCase {
    private func realDump() throws -> [UInt8] {
        let runner = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, "reader"))
        let outcome = try runner.run("segv")
        return [UInt8](try Data(contentsOf: try XCTUnwrap(outcome.dumps.first)))
    }

    func testEveryTruncationIsFlaggedAndKeepsWhatCameBefore() throws {
        let bytes = try realDump()
        let full = IntermediateDump(bytes: bytes)
        XCTAssertTrue(full.isComplete, full.incompleteReason ?? "")
        let signal = try XCTUnwrap(full.root.map(key(SEAM_DK_SIGNAL)))
        // Once a prefix holds the whole signal section, every longer prefix must keep it.
        var signalEnd = 0
        for length in 0..<bytes.count {
            let partial = IntermediateDump(bytes: Array(bytes[0..<length]))
            XCTAssertFalse(partial.isComplete, "prefix of \(length) bytes read as complete")
            XCTAssertNotNil(partial.incompleteReason)
            if signalEnd == 0, partial.root.map(key(SEAM_DK_SIGNAL)) == signal { signalEnd = length }
            if signalEnd > 0 {
                XCTAssertEqual(
                    partial.root.map(key(SEAM_DK_SIGNAL)), signal, "prefix \(length) lost the signal section")
            }
        }
        XCTAssertGreaterThan(signalEnd, 0)
    }

    func testRandomByteFlipsNeverCrashTheReader() throws {
        let bytes = try realDump()
        var generator = SeededGenerator(seed: 0x5EA3)
        var flagged = 0
        let rounds = 3000
        for _ in 0..<rounds {
            var mutated = bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            let dump = IntermediateDump(bytes: mutated)
            XCTAssertEqual(dump.isComplete, dump.incompleteReason == nil)
            if !dump.isComplete { flagged += 1 }
        }
        // Flips inside property values leave a well-formed stream; flips in structure must not.
        XCTAssertGreaterThan(flagged, rounds / 10, "damage to tags and lengths is detected")
    }

    func testMalformedStreamsAreRejectedWithAReason() {
        let header = Array(SEAM_DUMP_MAGIC.utf8) + le(UInt64(SEAM_DUMP_VERSION), 4)
        let cases: [(String, [UInt8], String)] = [
            ("empty", [], "shorter than"),
            ("bad magic", Array("NOTADUMP".utf8) + le(1, 4) + [6], "bad magic"),
            ("future version", Array(SEAM_DUMP_MAGIC.utf8) + le(99, 4) + [6], "unsupported format version 99"),
            ("unknown command", header + [0x7F], "unknown command 127"),
            ("end map without start", header + [2, 6], "no matching start"),
            ("end array closing a map", header + [1, 10, 0, 4], "no matching start"),
            ("property in array", header + [3, 40, 0] + property(1, [1]), "inside an array"),
            ("array in array", header + [3, 40, 0, 3, 41, 0], "array directly inside an array"),
            ("length past end", header + [5, 1, 0] + le(1000, 4) + [1, 2], "1000 bytes, 2 left"),
            ("huge length", header + [5, 1, 0] + le(0xFFFF_FFFF, 4), "exceeds"),
            ("document inside map", header + [1, 10, 0, 6], "containers open"),
            ("trailing bytes", header + [6, 0, 0], "2 bytes after END_DOCUMENT"),
            (
                "too deep", header + Array(repeating: [UInt8]([1, 10, 0]), count: 40).flatMap { $0 },
                "nesting deeper than 32"
            ),
        ]
        for (name, bytes, reason) in cases {
            let dump = IntermediateDump(bytes: bytes)
            XCTAssertFalse(dump.isComplete, name)
            XCTAssertTrue(dump.incompleteReason?.contains(reason) == true, "\(name): \(dump.incompleteReason ?? "nil")")
        }
    }

    func testWellFormedHandMadeStreamParsesIntoTheTree() {
        let header = Array(SEAM_DUMP_MAGIC.utf8) + le(UInt64(SEAM_DUMP_VERSION), 4)
        let stream =
            header + property(1, le(42, 8))
            + [1, 10, 0] + property(11, le(11, 8)) + [2]
            + [3, 40, 0] + [1, 0, 0] + property(31, le(7, 8)) + [2] + [1, 0, 0] + property(31, le(8, 8)) + [2] + [4]
            + [6]
        let dump = IntermediateDump(bytes: stream)
        XCTAssertTrue(dump.isComplete, dump.incompleteReason ?? "")
        XCTAssertEqual(dump.version, SEAM_DUMP_VERSION)
        XCTAssertEqual(dump.root.uint64(1), 42)
        XCTAssertEqual(dump.root.map(10)?.uint64(11), 11)
        XCTAssertEqual(dump.root.array(40).map { $0.uint64(31) }, [7, 8])
        XCTAssertNil(dump.root.uint64(99))
    }

    func testUnreadableFileIsAnErrorNamingIt() {
        let path = "/nonexistent/seam/dump.seamdump"
        XCTAssertThrowsError(try IntermediateDump(contentsOf: URL(fileURLWithPath: path))) { error in
            XCTAssertTrue("\(error)".contains(path), "\(error)")
        }
    }

    private func le(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private func property(_ key: UInt16, _ value: [UInt8]) -> [UInt8] {
        [5] + le(UInt64(key), 2) + le(UInt64(value.count), 4) + value
    }
}

/// Deterministic random numbers (SplitMix64) so a failing mutation can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
