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
    /// Copies of earlier builds' modules (see `SymbolStore`), read when a module's own file is
    /// another build or gone.
    let symbolStore: SymbolStore?
    /// The file each module's symbols are read from, by path and build ID.
    private var symbolFiles: [String: String] = [:]

    init(symbolStore: SymbolStore? = nil) {
        self.symbolStore = symbolStore
    }

    /// Source locations of one thread's frames, each innermost inlined function first (see
    /// `SourceLocator`), in one lookup; empty for a frame with no request or whose module's
    /// file (or its copy in the symbol store) is unreadable or does not match the recorded build ID.
    func sourceEntries(for requests: [SourceLocator.Request?]) -> [[SourceLocator.Entry]] {
        let readable = requests.indices.filter { requests[$0].map { status(of: $0.module) == "ok" } ?? false }
        var result = [[SourceLocator.Entry]](repeating: [], count: requests.count)
        let located = sourceLocator.entries(
            for: readable.compactMap { requests[$0] }.map {
                SourceLocator.Request(address: $0.address, kind: $0.kind, module: readingSymbols($0.module))
            })
        for (index, entries) in zip(readable, located) {
            result[index] = entries
        }
        return result
    }

    /// The file the module's symbols, line tables and CFI are read from: its own file when that
    /// is the recorded build, else the symbol store's copy of that build when there is one.
    func symbolFile(of module: Module) -> String {
        let key = module.path + "\u{0}" + (module.buildID.map(ReportBuilder.hexBytes) ?? "")
        if let known = symbolFiles[key] { return known }
        // Build IDs from the program headers only (a few reads): every module of every dump
        // passes here, and most are never symbolicated.
        var file = module.path
        if let store = symbolStore, let id = module.buildID, module.path.hasPrefix("/"),
            ELFBuildID.read(path: module.path) != id,
            let copy = store.file(buildID: id, module: module.path), ELFBuildID.read(path: copy) == id
        {
            file = copy
        }
        symbolFiles[key] = file
        return file
    }

    /// The module with its symbol file as its path (for the readers that open it by path).
    func readingSymbols(_ module: Module) -> Module {
        let file = symbolFile(of: module)
        return file == module.path
            ? module
            : Module(path: file, bias: module.bias, start: module.start, end: module.end, buildID: module.buildID)
    }

    /// Where a module with symbols had them from: `module_file`, or `symbol_store` (a copy kept
    /// for its build); nil when it has none.
    func symbolsSource(of module: Module) -> String? {
        guard status(of: module) == "ok" else { return nil }
        return symbolFile(of: module) == module.path ? "module_file" : "symbol_store"
    }

    /// The module whose loaded span holds address.
    func module(containing address: UInt64, in modules: [Module]) -> Module? {
        modules.first { address >= $0.start && address < $0.end }
    }

    /// Symbol status of a module: ok, no_symbols, unreadable, build_id_mismatch, not_a_file.
    func status(of module: Module) -> String {
        guard module.path.hasPrefix("/") else { return "not_a_file" }
        return fileStatus(symbolFile(of: module), buildID: module.buildID)
    }

    private func fileStatus(_ path: String, buildID: [UInt8]?) -> String {
        guard path.hasPrefix("/") else { return "not_a_file" }
        switch table(path) {
        case .failure: return "unreadable"
        case .success(let table):
            if let recorded = buildID, let onDisk = table.buildID, recorded != onDisk { return "build_id_mismatch" }
            return table.symbols.isEmpty ? "no_symbols" : "ok"
        }
    }

    /// The function at address. Return addresses point after the call, so callers pass
    /// `isReturnAddress` to look up the byte before it.
    func resolve(_ address: UInt64, in module: Module, isReturnAddress: Bool) -> Resolution? {
        guard status(of: module) == "ok", case .success(let table)? = tables[symbolFile(of: module)] else { return nil }
        let elfAddress = address &- module.bias
        let probe = isReturnAddress && elfAddress > 0 ? elfAddress - 1 : elfAddress
        guard let (symbol, offset) = table.lookup(probe) else { return nil }
        let readable = Demangler.function(symbol.name)
        return Resolution(
            function: readable ?? symbol.name, mangled: readable == nil ? nil : symbol.name,
            offset: offset + (probe == elfAddress ? 0 : 1))
    }

    private func table(_ path: String) -> Result<ELFSymbolTable, Error> {
        if let cached = tables[path] { return cached }
        let loaded = Result { try ELFSymbolTable(path: path) }
        tables[path] = loaded
        return loaded
    }
}
