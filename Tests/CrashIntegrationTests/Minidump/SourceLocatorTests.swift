import Foundation
import SeamTestSupport
import XCTest
@testable import CrashIntegration

/// Source lines and inlined frames from the toolchain's `Runtime` symbolicator, checked against
/// an independent DWARF reader (LLVM's llvm-symbolizer) on a library built here with an
/// inlined call.
final class SourceLocatorTests: XCTestCase {
    private let symbolizer = "/usr/lib/llvm-14/bin/llvm-symbolizer"

    func testInlinedFramesAndLinesAgreeWithLLVMSymbolizer() throws {
        guard FileManager.default.isExecutableFile(atPath: symbolizer) else {
            throw XCTSkip("\(symbolizer) not installed (Debian's llvm-14, pulled in by libclang-dev)")
        }
        let directory = try makeProbeDirectory(self, "inlined")
        let source = directory.appendingPathComponent("inlined.c")
        try """
        __attribute__((always_inline)) static inline int seam_inner(volatile int *p) {
            return *p * 3;
        }
        __attribute__((noinline)) int seam_outer(volatile int *p) {
            return seam_inner(p) + 1;
        }
        """.write(to: source, atomically: true, encoding: .utf8)
        let library = directory.appendingPathComponent("libinlined.so")
        let clang = try MinidumpReaders.run(
            "/usr/bin/env",
            [
                "clang", "-O2", "-g", "-shared", "-fPIC", "-Wl,--build-id",
                "-o", library.path, source.path,
            ], timeout: 120)
        XCTAssertEqual(clang.status, 0, clang.stderr)
        let nm = try MinidumpReaders.run("/usr/bin/env", ["nm", "-S", library.path], timeout: 30)
        let line = try XCTUnwrap(nm.stdout.split(separator: "\n").first { $0.hasSuffix(" seam_outer") }, nm.stdout)
        let fields = line.split(separator: " ")
        let start = try XCTUnwrap(UInt64(fields[0], radix: 16)), size = try XCTUnwrap(UInt64(fields[1], radix: 16))
        let size64 = UInt64((try FileManager.default.attributesOfItem(atPath: library.path)[.size] as? Int) ?? 0)
        let module = Symbolicator.Module(path: library.path, bias: 0, start: 0, end: size64, buildID: nil)
        let locator = SourceLocator()

        var checkedInlined = false
        for address in start..<start + size {
            let reference = try symbolize(library, address)
            let ours = locator.entries(at: address, in: module, isReturnAddress: false)
            XCTAssertEqual(
                ours.map(\.rawName), reference.map(\.function), "functions at 0x\(String(address, radix: 16))")
            XCTAssertEqual(ours.map(\.inlined), reference.indices.map { $0 < reference.count - 1 }, "inlined marks")
            XCTAssertEqual(
                ours.map { "\($0.line ?? 0):\($0.column ?? 0)" }, reference.map { "\($0.line):\($0.column)" },
                "lines at 0x\(String(address, radix: 16))")
            checkedInlined = checkedInlined || ours.count == 2
        }
        XCTAssertTrue(checkedInlined, "some address of seam_outer is inside the inlined seam_inner")
    }

    /// llvm-symbolizer's frames for one address, innermost first.
    private func symbolize(_ library: URL, _ address: UInt64) throws -> [(function: String, line: Int, column: Int)] {
        let run = try MinidumpReaders.run(
            symbolizer,
            [
                "--obj=\(library.path)", "--inlining", "--functions=linkage",
                "0x" + String(address, radix: 16),
            ], timeout: 30)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: true)
        return stride(from: 0, to: lines.count - 1, by: 2).map { index in
            let location = lines[index + 1].split(separator: ":")
            return (String(lines[index]), Int(location.dropLast().last ?? "") ?? 0, Int(location.last ?? "") ?? 0)
        }
    }
}
