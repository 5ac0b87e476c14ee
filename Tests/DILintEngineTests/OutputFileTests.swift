import Foundation
import XCTest
@testable import DILintEngine

/// `--output` and baseline writes must not replace a special file (as root, an atomic rename over
/// `/dev/null` turns it into a regular file). Checked with a FIFO, which is as special and harmless.
final class OutputFileTests: XCTestCase {
    func testWritingIntoAFIFOKeepsItAFIFO() throws {
        let dir = try temporaryDirectory(self)
        let fifo = dir.appendingPathComponent("report.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        final class Reader: @unchecked Sendable { var bytes: [UInt8] = [] }
        let reader = Reader()
        let received = expectation(description: "reader got the report")
        Thread {
            let fd = open(fifo, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 256)
            while fd >= 0 {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                reader.bytes += buffer[0..<n]
            }
            close(fd)
            received.fulfill()
        }.start()
        try OutputFile.write(Data("hello\n".utf8), to: fifo)
        wait(for: [received], timeout: 5)
        XCTAssertEqual(String(decoding: reader.bytes, as: UTF8.self), "hello\n")
        var st = stat()
        XCTAssertEqual(stat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "the FIFO was replaced")
    }

    func testRegularFilesAreReplacedAtomicallyAndErrorsNameThePath() throws {
        let dir = try temporaryDirectory(self)
        let path = dir.appendingPathComponent("out.json").path
        try OutputFile.write(Data("one".utf8), to: path)
        try OutputFile.write(Data("two".utf8), to: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "two")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path), ["out.json"], "no temporary left behind")
        XCTAssertThrowsError(try OutputFile.write(Data(), to: dir.path + "/missing/out.json")) { error in
            XCTAssertTrue("\(error)".hasPrefix(dir.path + "/missing/out.json: cannot write it"), "\(error)")
        }
    }
}
