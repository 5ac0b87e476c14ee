import Foundation
import SeamTestSupport
import XCTest
@testable import CrashIntegration
#if canImport(Glibc)
import Glibc
#endif

/// The Swift runtime libraries (libswiftCore and the others in the toolchain's directory) are
/// replaced in place when the toolchain is upgraded. The symbol store keeps a symbols-only copy
/// of each loaded one per build ID: symbol tables, notes and call-frame information at their
/// offsets, with code and data left as a hole. Processing reads it like the library itself.
final class RuntimeLibrarySymbolsTests: XCTestCase {
    private func loadedCore() throws -> String {
        try XCTUnwrap(
            SymbolStore.loadedFiles().first { $0.hasSuffix("/libswiftCore.so") }, "this process loads libswiftCore.so")
    }

    func testSymbolsOnlyCopyReadsLikeTheLibraryAndIsSmaller() throws {
        let core = try loadedCore()
        let store = SymbolStore(dumpDirectory: try makeProbeDirectory(self, "runtime-symbols"))
        let kept = try XCTUnwrap(try store.keep(module: core, readingFrom: core, symbolsOnly: true))
        XCTAssertTrue(kept.copied)

        var original = stat(), copy = stat()
        XCTAssertEqual(stat(core, &original), 0)
        XCTAssertEqual(stat(kept.file.path, &copy), 0)
        XCTAssertEqual(copy.st_size, original.st_size, "the same layout: every offset means what it meant")
        XCTAssertLessThan(kept.bytes, Int(original.st_size) * 7 / 10, "code and data are not kept: \(kept.bytes) bytes")

        let library = try ELFSymbolTable(path: core), symbols = try ELFSymbolTable(path: kept.file.path)
        XCTAssertEqual(symbols.buildID, library.buildID)
        XCTAssertEqual(symbols.symbols.count, library.symbols.count)
        XCTAssertGreaterThan(library.symbols.count, 1000)
        let retain = try XCTUnwrap(library.symbols.first { $0.name == "swift_retain" })
        XCTAssertEqual(symbols.lookup(retain.start + 1)?.symbol.name, "swift_retain")

        // Call-frame information answers the same, and the code itself is gone (zeros).
        let libraryCFI = try XCTUnwrap(CallFrameInfo(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: core)))))
        let copyBytes = [UInt8](try Data(contentsOf: kept.file))
        let copyCFI = try XCTUnwrap(CallFrameInfo(bytes: copyBytes), "the copy's .eh_frame_hdr is readable")
        for symbol in library.symbols.filter({ $0.size > 16 }).prefix(200) {
            // the rows themselves: their register tables print in either order
            XCTAssertEqual(copyCFI.row(for: symbol.start + 8), libraryCFI.row(for: symbol.start + 8), symbol.name)
        }
        let codeOffset = try XCTUnwrap(fileOffset(of: retain.start, in: core))
        XCTAssertTrue(copyBytes[Int(codeOffset)..<Int(codeOffset) + 16].allSatisfy { $0 == 0 }, "swift_retain's code")
    }

    /// A crash recorded with the old libswiftCore, processed after the file at that path was
    /// replaced (here by another library): the function comes from the kept symbols.
    func testAReplacedRuntimeLibraryIsSymbolicatedFromTheStore() throws {
        let core = try loadedCore()
        let root = try makeProbeDirectory(self, "runtime-update")
        let store = SymbolStore(dumpDirectory: root)
        XCTAssertNotNil(try store.keep(module: core, readingFrom: core, symbolsOnly: true))
        let library = try ELFSymbolTable(path: core)
        let buildID = try XCTUnwrap(library.buildID)
        let retain = try XCTUnwrap(library.symbols.first { $0.name == "swift_retain" })

        // The "upgraded" library: another file under the same path, with another build ID.
        let upgraded = root.appendingPathComponent("toolchain/libswiftCore.so")
        try FileManager.default.createDirectory(
            at: upgraded.deletingLastPathComponent(), withIntermediateDirectories: true)
        let other = try XCTUnwrap(SymbolStore.loadedFiles().first { $0.hasSuffix("/libswift_Concurrency.so") })
        try FileManager.default.copyItem(atPath: other, toPath: upgraded.path)

        let bias: UInt64 = 0x7f00_0000_0000
        let module = Symbolicator.Module(
            path: upgraded.path, bias: bias, start: bias, end: bias + 0x1000_0000, buildID: buildID)
        let withStore = Symbolicator(symbolStore: store)
        XCTAssertEqual(withStore.status(of: module), "ok")
        XCTAssertEqual(withStore.symbolsSource(of: module), "symbol_store")
        XCTAssertEqual(
            withStore.resolve(bias + retain.start + 4, in: module, isReturnAddress: true)?.function, "swift_retain")
        XCTAssertEqual(
            Symbolicator().status(of: module), "build_id_mismatch", "without the store the new file is refused")
    }

    /// At install: the loaded runtime libraries are kept, symbols only, under their build IDs
    /// (keepLoadedModules does this after keeping the executable).
    func testTheLoadedRuntimeLibrariesAreKeptOnce() throws {
        let store = SymbolStore(dumpDirectory: try makeProbeDirectory(self, "runtime-install"))
        let started = Date()
        let (kept, warnings) = store.keepRuntimeLibraries(excluding: "/nonexistent/")
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(warnings, [])
        let core = try XCTUnwrap(kept.first { $0.module.hasSuffix("/libswiftCore.so") }, "\(kept.map(\.module))")
        XCTAssertTrue(core.copied)
        let runtime = kept.filter {
            $0.module.hasPrefix(URL(fileURLWithPath: core.module).deletingLastPathComponent().path + "/")
        }
        let bytes = runtime.reduce(0) { $0 + $1.bytes }
        print(
            "runtime libraries kept: \(runtime.count), \(bytes) bytes on disk, in \(String(format: "%.2f", elapsed)) s")
        XCTAssertFalse(
            kept.contains { $0.module.hasPrefix("/lib/") || $0.module.hasPrefix("/usr/lib/x86_64") },
            "no system library")
        // Kept once: the next install only looks.
        XCTAssertFalse(store.keepRuntimeLibraries(excluding: "/nonexistent/").kept.contains { $0.copied })
    }

    /// On a small file system the runtime's symbols are not kept: dumps and reports need the room.
    func testNotKeptWhereTheyWouldCrowdOutReports() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a tmpfs needs root") }
        let mount = try makeProbeDirectory(self, "runtime-small-fs")
        guard mountTmpfs(at: mount, size: "64m") else { throw XCTSkip("cannot mount a tmpfs here") }
        defer { unmountTmpfs(at: mount) }
        let store = SymbolStore(dumpDirectory: mount.appendingPathComponent("dumps"))
        let (kept, warnings) = store.keepRuntimeLibraries(excluding: "/nonexistent/")
        XCTAssertEqual(kept.map(\.module), [])
        XCTAssertEqual(warnings, [])
        XCTAssertLessThan(store.freeBytes(), SymbolStore.symbolsFreeSpaceMargin)
    }

    /// The file offset of an ELF virtual address, through the PT_LOAD headers.
    private func fileOffset(of address: UInt64, in path: String) throws -> UInt64? {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let file = ByteReader(bytes: bytes)
        let phoff = file.u64(0x20), phentsize = UInt64(file.u16(0x36)), phnum = UInt64(file.u16(0x38))
        for i in 0..<phnum where file.u32(phoff + i * phentsize) == 1 {
            let at = phoff + i * phentsize
            let offset = file.u64(at + 8), vaddr = file.u64(at + 16), size = file.u64(at + 32)
            if address >= vaddr && address < vaddr + size { return address - vaddr + offset }
        }
        return nil
    }
}
