import Foundation

/// Gives an Objective-C class its bridge property exactly once: a declaration that exists is
/// reused; otherwise it goes in the class's `@interface` in a header every implementation file
/// sees, else in a class extension of the `.m` (an existing one, or one added before
/// `@implementation`), plus `@class BridgeType;` where the type is not named yet.
struct BridgePropertyPlacer {
    let context: FixContext
    /// The property placed: the bridge (the bridge style), or an injected service (the service style).
    var property: PlacedProperty?

    init(context: FixContext, property: PlacedProperty? = nil) {
        self.context = context
        self.property = property
    }

    /// A property other than the bridge: its declaration, the names that count as declaring it
    /// already, and the type a file must name first (`@class T;`, `@protocol P;`).
    struct PlacedProperty {
        var declaration: String
        var names: Set<String>
        var forward: (keyword: String, name: String)?
    }

    var declaration: String {
        property?.declaration
            ?? "@property (nonatomic, strong, nullable) \(context.configuration.bridgeType) *\(context.bridgeName);"
    }

    func edits(for className: String, implementationFiles: [FixFileAnalysis]) -> [TextEdit] {
        var seen = Set<String>()
        let files = implementationFiles.filter { seen.insert($0.path).inserted }
        let bridgeNames = property?.names ?? Set(context.configuration.bridgeNames)
        let candidates = Set(context.filesDeclaring(className)).union(files.map(\.path)).sorted()
        var declared: [(FixFileAnalysis, ObjCDeclarations)] = []
        for path in candidates {
            guard let analysis = context.analysis(path) else { continue }
            let declarations = ObjCDeclarations(tokens: analysis.tokens, bridgeNames: bridgeNames)
            // reused
            if declarations.interfaces(of: className).contains(where: { $0.bridgeProperty != nil }) { return [] }
            declared.append((analysis, declarations))
        }
        // The class's interface in a header every implementation file includes.
        for (analysis, declarations) in declared where (analysis.path as NSString).pathExtension == "h" {
            // included, or imported by a name the parse could not find (a header of another folder of the run)
            guard let header = FixFileAnalysis.FileKey(path: analysis.path),
                files.allSatisfy({ $0.includes(header) || $0.importsUnresolved(analysis.path) }),
                let block = declarations.interfaces(of: className).first(where: { $0.kind == .primary }),
                let edits = insert(before: block, in: analysis, declarations)
            else { continue }
            return edits
        }
        guard let main = files.first, let declarations = declared.first(where: { $0.0.path == main.path })?.1 else {
            return []
        }
        let interfaces = declarations.interfaces(of: className)
        for kind in [ObjCDeclarations.Kind.classExtension, .primary] {
            if let block = interfaces.first(where: { $0.kind == kind }),
                let edits = insert(before: block, in: main, declarations)
            {
                return edits
            }
        }
        guard let implementation = declarations.implementation(of: className) else { return [] }
        let eol = main.tokens.lineEnding
        let at = main.tokens.lineStart(above: implementation.start)
        let text = "@interface \(className) ()\(eol)\(declaration)\(eol)@end\(eol)\(eol)"
        return forwardDeclaration(in: main, declarations, before: implementation.start)
            + [TextEdit(path: main.path, range: at..<at, replacement: text)]
    }

    /// `#import "BridgeType.h"` in each file that reads the bridge, unless it imports it already:
    /// after the last include in effect where the file's first rewrite is (`firstEdit`, by real
    /// path), the deepest such: inside the `#if` that imports the container when the code is in
    /// it too; else after the file's last include.
    func imports(in files: [FixFileAnalysis], firstEdit: [String: Int] = [:]) -> [TextEdit] {
        let header = context.configuration.bridgeHeader ?? "\(context.configuration.bridgeType).h"
        var seen = Set<String>()
        return files.filter { seen.insert($0.path).inserted }.compactMap { analysis in
            let buffer = analysis.file.buffer
            let imported = (1...buffer.lineStarts.count).contains { n in
                // only lines starting with `#` become strings
                var i = buffer.lineStarts[n - 1]
                while i < buffer.bytes.count,
                    buffer.bytes[i] == UInt8(ascii: " ") || buffer.bytes[i] == UInt8(ascii: "\t")
                { i += 1 }
                guard i < buffer.bytes.count, buffer.bytes[i] == UInt8(ascii: "#") else { return false }
                let line = buffer.lineText(n).trimmingCharacters(in: .whitespaces)
                return (line.hasPrefix("#import") || line.hasPrefix("#include"))
                    && (line.contains("\"\(header)\"") || line.contains("<\(header)>") || line.contains("/\(header)"))
            }
            guard !imported else { return nil }
            let tokens = analysis.tokens
            let at =
                firstEdit[analysis.path].flatMap(tokens.afterIncludeInEffect(at:)) ?? tokens.afterLastInclude(
                    before: tokens.count) ?? 0
            return TextEdit(
                path: analysis.path, range: at..<at, replacement: "#import \"\(header)\"\(tokens.lineEnding)", order: 0)
        }
    }

    /// The property inserted on its own line before the block's `@end`.
    private func insert(
        before block: ObjCDeclarations.Block, in analysis: FixFileAnalysis, _ declarations: ObjCDeclarations
    ) -> [TextEdit]? {
        guard let end = block.end, analysis.tokens.isFirstOnLine(end) else { return nil }
        let tokens = analysis.tokens
        let at = tokens.lineStart(tokens.start(end))
        let text = tokens.indentation(tokens.start(end)) + declaration + tokens.lineEnding
        return forwardDeclaration(in: analysis, declarations, before: block.start)
            + [TextEdit(path: analysis.path, range: at..<at, replacement: text)]
    }

    /// `@class BridgeType;` in a header, unless the type is named before `limit`; a service's
    /// type in any file (an implementation file imports no header for it).
    func forwardDeclaration(in analysis: FixFileAnalysis, _ declarations: ObjCDeclarations, before limit: Int)
        -> [TextEdit]
    {
        let keyword: String, type: String
        if let property {
            guard let forward = property.forward else { return [] }
            (keyword, type) = (forward.keyword, forward.name)
        } else {
            (keyword, type) = ("class", context.configuration.bridgeType)
        }
        // An implementation file gets the bridge's header imported (see `imports`); a header only the forward declaration.
        guard property != nil || ["h", "hh", "hpp"].contains((analysis.path as NSString).pathExtension),
            !declarations.names(type, before: limit), let first = declarations.firstDeclaration
        else { return [] }
        let tokens = analysis.tokens
        // beside the file's other forward declarations, else after its includes, else above its first declaration
        let afterForward = tokens.lineAfterLast(before: limit) {
            ObjCDeclarations.directive(tokens, at: $0)?.0 == keyword
        }
        let at = afterForward ?? tokens.afterLastInclude(before: first) ?? tokens.lineStart(above: first)
        return [
            TextEdit(
                path: analysis.path, range: at..<at, replacement: "@\(keyword) \(type);\(tokens.lineEnding)", order: 0)
        ]
    }
}
