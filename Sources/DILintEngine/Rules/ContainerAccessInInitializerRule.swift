import CLibClang

/// `container-access-in-initializer`: the container reached while an object is being built
/// (`-init…` methods, C++ constructors and their member initializers). Blocks and lambdas created
/// there run later and are left out.
struct ContainerAccessInInitializerRule: FileRule {
    let id = "container-access-in-initializer"

    func check(_ context: FileContext, severity: Severity) -> [Finding] {
        let inInit = context.accesses.filter { $0.access.touchesContainer && $0.enclosing?.isInitializer == true }
        guard !inInit.isEmpty else { return [] }
        let t = TokenView(file: context.file)
        let later = deferredBodies(context.file) + inInit.compactMap(\.enclosing).flatMap { t.blockBodies(in: $0.range) }
        return inInit.filter { located in !later.contains { $0.contains(located.offset) } }.map { located in
            let e = located.enclosing!
            let what = e.kind == .constructor ? "constructor '\(e.typeName ?? e.name)'" : "initializer '-\(e.name)'"
            return context.finding(
                rule: id, offset: located.offset, severity: severity,
                message: "container access '\(located.access.expression)' in \(what): pass the dependency in (or read it from the injected bridge) instead of reaching for the container while the object is built",
                access: located.access)
        }
    }

    /// Lambda and block bodies libclang resolved (the token scan finds blocks it did not).
    private func deferredBodies(_ file: ParsedFile) -> [Range<Int>] {
        final class Box { var ranges: [Range<Int>] = []; let file: ParsedFile; init(_ f: ParsedFile) { file = f } }
        let box = Box(file)
        _ = clang_visitChildren(clang_getTranslationUnitCursor(file.unit), { c, _, data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
            if clang_Location_isFromMainFile(clang_getCursorLocation(c)) == 0 { return CXChildVisit_Continue }
            if c.kind == CXCursor_LambdaExpr || c.kind == CXCursor_BlockExpr, let r = Cursors.offsets(c, in: box.file) {
                box.ranges.append(r)
                return CXChildVisit_Continue
            }
            return CXChildVisit_Recurse
        }, Unmanaged.passUnretained(box).toOpaque())
        return box.ranges
    }
}

extension ContainerAccess {
    /// A use of the container itself (direct or as a fallback), not a service read through the
    /// bridge nor an access inside the composition root.
    var touchesContainer: Bool { kind == .direct || kind == .fallback }
}
