/// Shell-style globs: `*` within a path component, `**` across components (`**/` also matches
/// no directory at all), `?` one character other than `/`.
///
/// Matched by running the pattern as a set of positions over the path (an NFA), so the cost is
/// at most the pattern's length times the path's, whatever the stars: `*a*a*a*…b` against a long
/// run of `a` no longer backtracks exponentially.
public enum Glob {
    private enum Token: Equatable {
        case byte(UInt8), one, star, globstar
    }

    public static func matches(_ pattern: String, _ path: String) -> Bool {
        let (tokens, skipsSlash) = compile(Array(pattern.utf8))
        let count = tokens.count
        var active = [Bool](repeating: false, count: count + 1)
        var next = active
        func add(_ i: Int, to set: inout [Bool]) {
            var i = i
            while i <= count, !set[i] {
                set[i] = true
                guard i < count else { return }
                switch tokens[i] {
                case .star: i += 1
                case .globstar:
                    if skipsSlash[i] { add(i + 2, to: &set) }
                    i += 1
                default: return
                }
            }
        }
        add(0, to: &active)
        let slash = UInt8(ascii: "/")
        for c in path.utf8 {
            for i in next.indices { next[i] = false }
            var any = false
            for i in 0..<count where active[i] {
                switch tokens[i] {
                case let .byte(b) where b == c: add(i + 1, to: &next); any = true
                case .one where c != slash: add(i + 1, to: &next); any = true
                case .star where c != slash: add(i, to: &next); any = true
                case .globstar: add(i, to: &next); any = true
                default: break
                }
            }
            guard any else { return false }
            swap(&active, &next)
        }
        return active[count]
    }

    /// The pattern's tokens, and for each `**` whether a `/` follows it that it may skip with it.
    private static func compile(_ p: [UInt8]) -> ([Token], [Bool]) {
        var tokens: [Token] = [], skipsSlash: [Bool] = []
        var i = 0
        while i < p.count {
            switch p[i] {
            case UInt8(ascii: "*") where i + 1 < p.count && p[i + 1] == UInt8(ascii: "*"):
                i += 2
                while i < p.count, p[i] == UInt8(ascii: "*") { i += 1 }
                tokens.append(.globstar)
                skipsSlash.append(i < p.count && p[i] == UInt8(ascii: "/"))
                continue
            case UInt8(ascii: "*"): tokens.append(.star)
            case UInt8(ascii: "?"): tokens.append(.one)
            default: tokens.append(.byte(p[i]))
            }
            skipsSlash.append(false)
            i += 1
        }
        return (tokens, skipsSlash)
    }
}
