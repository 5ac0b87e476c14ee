import Foundation
import XCTest

/// A crash-demo `--store` that does not exist yet (crash-demo creates it), removed after the test.
final class DemoStoreDirectory {
    let url: URL
    var path: String { url.path }
    var dumps: URL { url.appendingPathComponent("dumps") }
    var reports: URL { url.appendingPathComponent("reports") }

    init(_ testCase: XCTestCase) {
        let parent = FileManager.default.temporaryDirectory
            .appendingPathComponent("crash-demo-test-\(UUID().uuidString)", isDirectory: true)
        url = parent.appendingPathComponent("store", isDirectory: true)
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: parent) }
    }

    /// Files directly in `directory` whose names end with `suffix` (hidden ones included).
    func files(in directory: URL, endingWith suffix: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Every regular file directly in `directory`, temporary (hidden) ones included.
    func regularFiles(in directory: URL) -> [URL] {
        files(in: directory, endingWith: "").filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }

    /// Pending dumps in `dumps/`.
    var dumpFiles: [URL] { files(in: dumps, endingWith: ".seamdump") }
    /// Reports waiting for upload in `reports/`.
    var reportFiles: [URL] { files(in: reports, endingWith: ".json").filter { !$0.lastPathComponent.hasPrefix(".") } }

    /// Permission bits of a path (nil when it does not exist).
    static func mode(of url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? Int
    }
}

/// Asserts `directory` is 0700 and each of `files` is 0600 (the pending and temporary files
/// a crash leaves must be readable by their owner only).
func assertOwnerOnly(_ directory: URL, files: [URL], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(octalMode(directory), "700", "\(directory.path) should be 0700", file: file, line: line)
    for entry in files {
        XCTAssertEqual(octalMode(entry), "600", "\(entry.path) should be 0600", file: file, line: line)
    }
}

private func octalMode(_ url: URL) -> String? {
    DemoStoreDirectory.mode(of: url).map { String($0, radix: 8) }
}
