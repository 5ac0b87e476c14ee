import Foundation

/// Resolves frame addresses to functions using the symbol tables of the module files on disk,
/// checked against the build IDs recorded at crash time. Tables are loaded once per path and
/// reused across dumps.
final class Symbolicator {
    struct Module {
        let path: String
        let bias: UInt64
        let start: UInt64
        let end: UInt64
        let buildID: [UInt8]?
    }

    struct Resolution {
        let function: String
        let mangled: String?
        let offset: UInt64
    }

    private var tables: [String: Result<ELFSymbolTable, Error>] = [:]
    private let sourceLocator = SourceLocator()

    /// Source locations of one thread's frames, each innermost inlined function first (see
    /// `SourceLocator`), in one lookup; empty for a frame with no request or whose module's
    /// file is unreadable or does not match the recorded build ID.
    func sourceEntries(for requests: [SourceLocator.Request?]) -> [[SourceLocator.Entry]] {
        let readable = requests.indices.filter { requests[$0].map { status(of: $0.module) == "ok" } ?? false }
        var result = [[SourceLocator.Entry]](repeating: [], count: requests.count)
        for (index, entries) in zip(readable, sourceLocator.entries(for: readable.compactMap { requests[$0] })) {
            result[index] = entries
        }
        return result
    }

    /// The module whose loaded span holds address.
    func module(containing address: UInt64, in modules: [Module]) -> Module? {
        modules.first { address >= $0.start && address < $0.end }
    }

    /// Symbol status of a module: ok, no_symbols, unreadable, build_id_mismatch, not_a_file.
    func status(of module: Module) -> String {
        guard module.path.hasPrefix("/") else { return "not_a_file" }
        switch table(module.path) {
        case .failure: return "unreadable"
        case .success(let table):
            if let recorded = module.buildID, let onDisk = table.buildID, recorded != onDisk { return "build_id_mismatch" }
            return table.symbols.isEmpty ? "no_symbols" : "ok"
        }
    }

    /// The function at address. Return addresses point after the call, so callers pass
    /// `isReturnAddress` to look up the byte before it.
    func resolve(_ address: UInt64, in module: Module, isReturnAddress: Bool) -> Resolution? {
        guard status(of: module) == "ok", case .success(let table)? = tables[module.path] else { return nil }
        let elfAddress = address &- module.bias
        let probe = isReturnAddress && elfAddress > 0 ? elfAddress - 1 : elfAddress
        guard let (symbol, offset) = table.lookup(probe) else { return nil }
        let readable = Demangler.function(symbol.name)
        return Resolution(function: readable ?? symbol.name, mangled: readable == nil ? nil : symbol.name,
                          offset: offset + (probe == elfAddress ? 0 : 1))
    }

    private func table(_ path: String) -> Result<ELFSymbolTable, Error> {
        if let cached = tables[path] { return cached }
        let loaded = Result { try ELFSymbolTable(path: path) }
        tables[path] = loaded
        return loaded
    }
}
