/// `--shard K/N`: one of N disjoint parts of the file set, for parallel CI jobs.
///
/// A file's part is picked by a hash of its path relative to the project root, not by its index
/// in the sorted list, so adding or removing a file moves no other file to another shard, and
/// every machine agrees whatever its checkout directory.
public struct Shard: Equatable, Sendable, CustomStringConvertible {
    /// 1-based.
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws {
        guard count >= 1, index >= 1, index <= count else {
            throw ConfigError.invalid("--shard \(index)/\(count): K must be between 1 and N, and N at least 1")
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw ConfigError.invalid("--shard '\(text)': expected K/N, as in 2/4")
        }
        try self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// The 1-based shard a project-relative path belongs to.
    public static func shard(of relativePath: String, count: Int) -> Int {
        var hasher = SHA256()
        hasher.update(relativePath)
        let digest = hasher.finalize()
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % UInt64(count)) + 1
    }

    /// The files of this shard, in their given order.
    public func select(_ files: [String], root: String) -> [String] {
        var relative = RelativePaths(root: root)
        return files.filter { Self.shard(of: relative[$0], count: count) == index }
    }
}
