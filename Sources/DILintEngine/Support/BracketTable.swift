/// The brackets of a token stream, matched in one pass: for each token its matching bracket and
/// the `{` of the block it is in. The access classifier looked these up by walking the tokens
/// from each access, which made a function of many accesses cost the square of its length (a
/// generated 1 MB function: minutes); with the table each lookup is one array read.
final class BracketTable {
    /// The matching bracket of each `(`, `[`, `{`, `)`, `]`, `}` (kinds mixed, as depth counting
    /// sees them), or -1 (unmatched, or not a bracket).
    private let partner: [Int]
    /// The matching bracket of the same kind (`(` with `)` only, and so on), or -1.
    private let sameKind: [Int32]
    /// For each token, the innermost `{` opened before it and not closed (braces only), or -1.
    private let blockOpen: [Int]
    /// For each token, its byte when it is one of `( ) [ ] { } ;`, else 0 (walks that only look
    /// for these test a byte instead of making the token's text).
    private let structural: [UInt8]
    /// Memo of per-block answers (the classifier's early-return scan), by the block's `{`.
    var earlyReturnEnd: [Int: Int] = [:]

    init(tokens: [SourceToken], bytes: [UInt8]) {
        var partner = [Int](repeating: -1, count: tokens.count)
        var blockOpen = [Int](repeating: -1, count: tokens.count)
        var structural = [UInt8](repeating: 0, count: tokens.count)
        var sameKind = [Int32](repeating: -1, count: tokens.count)
        var brackets: [Int] = [], braces: [Int] = []
        var kinds: [[Int32]] = [[], [], []] // one stack a kind: ( [ {
        for (i, token) in tokens.enumerated() {
            blockOpen[i] = braces.last ?? -1
            guard token.kind == .punctuation, token.range.count == 1 else { continue }
            let byte = bytes[token.range.lowerBound]
            if Self.structuralBytes.contains(byte) { structural[i] = byte }
            if let k = Self.openers.firstIndex(of: byte) {
                kinds[k].append(Int32(i))
            } else if let k = Self.closers.firstIndex(of: byte), let open = kinds[k].popLast() {
                sameKind[Int(open)] = Int32(i)
                sameKind[i] = open
            }
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: "["):
                brackets.append(i)
            case UInt8(ascii: "{"):
                brackets.append(i)
                braces.append(i)
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                if bytes[token.range.lowerBound] == UInt8(ascii: "}") { _ = braces.popLast() }
                if let open = brackets.popLast() {
                    partner[open] = i
                    partner[i] = open
                }
            default:
                continue
            }
        }
        self.partner = partner
        self.blockOpen = blockOpen
        self.structural = structural
        self.sameKind = sameKind
    }

    private static let openers = Array("([{".utf8), closers = Array(")]}".utf8)

    /// The bracket of the same kind matching token `i`, if it is a matched bracket: the pair a
    /// depth count of that kind alone finds from either end.
    func sameKindPartner(of i: Int) -> Int? {
        i >= 0 && i < sameKind.count && sameKind[i] >= 0 ? Int(sameKind[i]) : nil
    }

    private static let structuralBytes: Set<UInt8> = Set("()[]{};".utf8)

    /// Token `i`'s byte if it is `(`, `)`, `[`, `]`, `{`, `}` or `;`, else 0.
    func structuralByte(_ i: Int) -> UInt8 {
        i >= 0 && i < structural.count ? structural[i] : 0
    }

    /// The matching bracket of token `i`, if it is a matched bracket.
    func partner(of i: Int) -> Int? {
        i >= 0 && i < partner.count && partner[i] >= 0 ? partner[i] : nil
    }

    /// The `{` enclosing token `i`, or -1.
    func enclosingBlock(of i: Int) -> Int {
        i >= 0 && i < blockOpen.count ? blockOpen[i] : (i >= blockOpen.count ? blockOpen.last ?? -1 : -1)
    }
}
