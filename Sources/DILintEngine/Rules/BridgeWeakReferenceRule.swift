/// `bridge-weak-reference`: a bridge held by a `weak`, `assign` or `unsafe_unretained` property,
/// or a `__weak`/`__unsafe_unretained` variable or ivar: nothing keeps the bridge alive.
struct BridgeWeakReferenceRule: FileRule {
    let id = "bridge-weak-reference"

    static let weakAttributes: Set<String> = ["weak", "assign", "unsafe_unretained"]
    static let weakQualifiers: Set<String> = ["__weak", "__unsafe_unretained"]

    func check(_ context: FileContext, severity: Severity) -> [Finding] {
        let t = TokenView(file: context.file)
        let names = Set(context.configuration.bridgeNames)
        func isBridge(_ name: String) -> Bool { names.contains(name) || (name.hasPrefix("_") && names.contains(String(name.dropFirst()))) }
        var findings: [Finding] = []
        for i in 0..<t.count {
            // @property (nonatomic, weak) Bridge *bridge;
            if t.spells(i, "property"), t.spells(i - 1, "@"), t.spells(i + 1, "("), let close = t.close(from: i + 1) {
                let attributes = (i + 2..<close).map(t.text)
                guard let weak = attributes.first(where: BridgeWeakReferenceRule.weakAttributes.contains),
                      let end = (close..<t.count).first(where: { t.spells($0, ";") }),
                      let name = declaredName(t, close + 1, end), isBridge(t.text(name)),
                      !(close + 1..<end).contains(where: { t.spells($0, "struct") }) else { continue }
                findings.append(context.finding(
                    rule: id, offset: t.offset(i + 2 + attributes.firstIndex(of: weak)!), severity: severity,
                    message: "bridge property '\(t.text(name))' is '\(weak)': nothing owns the bridge through it, so it can go away while the crash reporter still uses it; make it strong"))
                continue
            }
            // __weak Bridge *bridge;  Bridge * __unsafe_unretained _bridge = b;
            if BridgeWeakReferenceRule.weakQualifiers.contains(t.text(i)) {
                var j = i + 1
                while j < t.count, ![";", "=", ",", ")", "{", "}"].contains(t.text(j)) { j += 1 }
                guard let name = declaredName(t, i + 1, j), isBridge(t.text(name)) else { continue }
                findings.append(context.finding(
                    rule: id, offset: t.offset(i), severity: severity,
                    message: "'\(t.text(name))' holds the bridge '\(t.text(i))': the bridge must be held strongly by whoever uses it at crash-handler install time"))
            }
        }
        return findings
    }

    /// The last identifier of a declaration between `lo` and `hi`, skipping a trailing macro call
    /// such as `NS_SWIFT_NAME(b)`.
    private func declaredName(_ t: TokenView, _ lo: Int, _ hi: Int) -> Int? {
        var j = hi - 1
        while j >= lo {
            if t.spells(j, ")"), let o = t.open(from: j) { j = o - 2; continue }
            if t.isIdentifier(j) { return j }
            j -= 1
        }
        return nil
    }
}
