/// Where a C or C++ file's text can define a function, read without a parse. A function's
/// definition spells its name outside every function and class body (a free function, an
/// out-of-line member `Type::name`, a `friend` defined in its class), or inside the body of a class
/// whose head spells the class's name. So a held-back file that spells a needed function's name
/// only inside bodies (calls, members of other classes) cannot define it, and the demand-driven
/// parse leaves it unparsed (`DemandRun.take`). Nil when the text cannot say: Objective-C, braces
/// that do not balance, an unterminated comment or string.
struct DefinitionSites: Sendable {
    /// Hashes (`DemandText.hash`) of the identifiers outside every body other than a namespace's or
    /// an `extern "C"` block's, with the words after `friend` up to the body or `;` and each
    /// `#define`'s name; sorted, each once.
    var namespaceScope: [UInt64] = []
    /// Those where a function defined would have no qualifier: outside named namespaces (or in an
    /// `extern "C"` block) and not after `Type::`, `.` or `->`.
    var globalScope: [UInt64] = []
    /// The identifiers of every `class`, `struct`, `union` and `namespace` head (up to its body,
    /// `;`, or the end of a template parameter).
    var heads: [UInt64] = []
    /// A `class`, `struct` or `union` body without a name opens (its members' qualified names are
    /// spelled nowhere): any member name may be defined in it.
    var anonymousClass = false

    private enum Block { case body, namespace(named: Bool), linkage }

    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> DefinitionSites? {
        var sites = DefinitionSites()
        var namespaceScope: [UInt64] = [], globalScope: [UInt64] = [], heads: [UInt64] = []
        let n = bytes.count
        var i = 0
        var lineStart = true
        var blocks: [Block] = []
        var bodies = 0, namedNamespaces = 0, linkages = 0
        // `#if` nesting: whether each level is past its first branch (`#elif`, `#else`); braces are
        // counted in first branches only, so that `#if A f(a) { #else f(b) { #endif` opens one body
        var conditions: [Bool] = []
        var alternatives = 0
        // the statement so far at this level
        var sawNamespace = false, namespaceNamed = false, afterExtern = false, linkageString = false
        var friend = false
        var classHead: (words: Int, depth: Int)? // identifiers read in a class head, paren depth
        // the last two tokens: what precedes an identifier (`Type::name`, `a.name`, `a->name`)
        var last: UInt8 = 0, beforeLast: UInt8 = 0 // `w` word, `:` for `::`, `.` for `.`/`->`, `>`, else the byte
        let word: UInt8 = 0x77, colons: UInt8 = 0x3A, member: UInt8 = 0x2E
        func endStatement() {
            sawNamespace = false
            namespaceNamed = false
            afterExtern = false
            linkageString = false
            friend = false
            classHead = nil
        }
        func token(_ t: UInt8) {
            beforeLast = last
            last = t
        }
        while i < n {
            let b = bytes[i]
            switch b {
            case 0x0A:
                lineStart = true
                i += 1
                continue
            case 0x20, 0x09, 0x0D, 0x0C, 0x0B:
                i += 1
                continue
            case 0x5C where i + 1 < n && (bytes[i + 1] == 0x0A || bytes[i + 1] == 0x0D):
                i += 2
                continue
            default:
                break
            }
            if b == 0x23 && lineStart {
                // a directive: its logical line, comments in it skipped
                var j = i + 1
                while j < n && (bytes[j] == 0x20 || bytes[j] == 0x09) { j += 1 }
                let start = j
                while j < n && DemandText.isWordByte(bytes[j]) { j += 1 }
                let directive = bytes[start..<j]
                if directive.elementsEqual("define".utf8) {
                    while j < n && (bytes[j] == 0x20 || bytes[j] == 0x09) { j += 1 }
                    let name = j
                    while j < n && DemandText.isWordByte(bytes[j]) { j += 1 }
                    if j > name {
                        let h = DemandText.hash(bytes[name..<j])
                        namespaceScope.append(h)
                        globalScope.append(h)
                    }
                } else if directive.elementsEqual("if".utf8) || directive.elementsEqual("ifdef".utf8)
                    || directive.elementsEqual("ifndef".utf8)
                {
                    conditions.append(false)
                } else if directive.elementsEqual("elif".utf8) || directive.elementsEqual("else".utf8)
                    || directive.elementsEqual("elifdef".utf8) || directive.elementsEqual("elifndef".utf8)
                {
                    if let top = conditions.last, !top {
                        conditions[conditions.count - 1] = true
                        alternatives += 1
                    }
                } else if directive.elementsEqual("endif".utf8) {
                    if let top = conditions.popLast(), top { alternatives -= 1 }
                }
                while j < n && bytes[j] != 0x0A {
                    if bytes[j] == 0x5C && j + 1 < n && bytes[j + 1] == 0x0A {
                        j += 2
                    } else if bytes[j] == 0x5C && j + 2 < n && bytes[j + 1] == 0x0D && bytes[j + 2] == 0x0A {
                        j += 3
                    } else if bytes[j] == 0x2F && j + 1 < n && bytes[j + 1] == 0x2A {
                        guard let end = commentEnd(bytes, from: j + 2) else { return nil }
                        j = end
                    } else if bytes[j] == 0x2F && j + 1 < n && bytes[j + 1] == 0x2F {
                        while j < n && bytes[j] != 0x0A { j += 1 }
                    } else {
                        j += 1
                    }
                }
                i = j
                continue
            }
            lineStart = false
            if b == 0x2F && i + 1 < n && bytes[i + 1] == 0x2F {
                while i < n && bytes[i] != 0x0A {
                    i += bytes[i] == 0x5C && i + 1 < n && bytes[i + 1] == 0x0A ? 2 : 1
                }
                continue
            }
            if b == 0x2F && i + 1 < n && bytes[i + 1] == 0x2A {
                guard let end = commentEnd(bytes, from: i + 2) else { return nil }
                i = end
                continue
            }
            if b == 0x22 || b == 0x27 {
                // a string or character literal (a `'` inside a number was read with the number)
                var j = i + 1
                while j < n && bytes[j] != b && bytes[j] != 0x0A { j += bytes[j] == 0x5C ? 2 : 1 }
                i = min(j + 1, n)
                if b == 0x22 && last == word && afterExtern { linkageString = true }
                afterExtern = false
                token(0x22)
                continue
            }
            if b == 0x40, i + 1 < n, DemandText.isWordByte(bytes[i + 1]) {
                var j = i + 1
                while j < n && DemandText.isWordByte(bytes[j]) { j += 1 }
                let keyword = bytes[(i + 1)..<j]
                if keyword.elementsEqual("interface".utf8) || keyword.elementsEqual("implementation".utf8)
                    || keyword.elementsEqual("protocol".utf8) || keyword.elementsEqual("end".utf8)
                {
                    return nil // Objective-C: methods are defined without braces' help
                }
                i = j
                token(word)
                continue
            }
            if DemandText.isWordByte(b) {
                var j = i
                if b >= 0x30 && b <= 0x39 {
                    // a number, its digit separators and exponent signs included
                    while j < n
                        && (DemandText.isWordByte(bytes[j]) || bytes[j] == 0x2E
                            || (bytes[j] == 0x27 && j + 1 < n && DemandText.isWordByte(bytes[j + 1]))
                            || ((bytes[j] == 0x2B || bytes[j] == 0x2D)
                                && (bytes[j - 1] | 0x20 == 0x65 || bytes[j - 1] | 0x20 == 0x70)))
                    {
                        j += 1
                    }
                    i = j
                    token(0x30)
                    continue
                }
                while j < n && DemandText.isWordByte(bytes[j]) { j += 1 }
                let spelled = bytes[i..<j]
                let h = DemandText.hash(spelled)
                if j < n && bytes[j] == 0x22 && isRawPrefix(spelled) {
                    // R"delimiter( … )delimiter"
                    var k = j + 1
                    while k < n && bytes[k] != 0x28 && k - j <= 17 { k += 1 }
                    guard k < n && bytes[k] == 0x28 else { return nil }
                    let close = [0x29] + Array(bytes[(j + 1)..<k]) + [0x22]
                    var m = k + 1
                    while m + close.count <= n && !bytes[m..<(m + close.count)].elementsEqual(close) { m += 1 }
                    guard m + close.count <= n else { return nil }
                    i = m + close.count
                    token(0x22)
                    continue
                }
                i = j
                if spelled.elementsEqual("namespace".utf8) {
                    sawNamespace = true
                } else if spelled.elementsEqual("extern".utf8) {
                    afterExtern = true
                    token(word)
                    continue
                } else if spelled.elementsEqual("friend".utf8) {
                    friend = true
                } else if spelled.elementsEqual("class".utf8) || spelled.elementsEqual("struct".utf8)
                    || spelled.elementsEqual("union".utf8)
                {
                    classHead = (0, 0)
                } else if let head = classHead {
                    heads.append(h)
                    if head.depth == 0 && !ignoredInHead(spelled) { classHead!.words += 1 }
                } else if sawNamespace {
                    heads.append(h)
                    namespaceNamed = true
                }
                if bodies == 0 || friend {
                    namespaceScope.append(h)
                    let qualified = last == member || (last == colons && (beforeLast == word || beforeLast == 0x3E))
                    if friend || (!qualified && (namedNamespaces == 0 || linkages > 0)) { globalScope.append(h) }
                }
                afterExtern = false
                token(word)
                continue
            }
            switch b {
            case 0x7B: // {
                if alternatives == 0 {
                    let block: Block
                    if sawNamespace {
                        block = .namespace(named: namespaceNamed)
                        if namespaceNamed { namedNamespaces += 1 }
                    } else if linkageString && last == 0x22 {
                        block = .linkage
                        linkages += 1
                    } else {
                        if let head = classHead, head.words == 0 { sites.anonymousClass = true }
                        block = .body
                        bodies += 1
                    }
                    blocks.append(block)
                }
                endStatement()
            case 0x7D: // }
                if alternatives == 0 {
                    switch blocks.popLast() {
                    case nil: return nil
                    case .body: bodies -= 1
                    case let .namespace(named): if named { namedNamespaces -= 1 }
                    case .linkage: linkages -= 1
                    }
                }
                endStatement()
            case 0x3B: // ;
                endStatement()
            case 0x28, 0x5B: // ( [
                if classHead != nil { classHead!.depth += 1 }
            case 0x29, 0x5D: // ) ]
                if let head = classHead {
                    if head.depth == 0 { classHead = nil } else { classHead!.depth -= 1 }
                }
            case 0x2C, 0x3E, 0x3D: // , > =  end a template parameter's or a declaration's head
                if let head = classHead, head.depth == 0 { classHead = nil }
            default:
                break
            }
            if b == 0x3A && i + 1 < n && bytes[i + 1] == 0x3A {
                token(colons)
                i += 2
                continue
            }
            if b == 0x2D && i + 1 < n && bytes[i + 1] == 0x3E {
                token(member)
                i += 2
                continue
            }
            token(b == 0x2E ? member : b)
            afterExtern = false
            i += 1
        }
        guard blocks.isEmpty else { return nil }
        sites.namespaceScope = namespaceScope.sortedUnique()
        sites.globalScope = globalScope.sortedUnique()
        sites.heads = heads.sortedUnique()
        return sites
    }

    /// Words of a class head that are not its name (`struct alignas(8) final {` has none).
    private static func ignoredInHead(_ word: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        ["alignas", "__attribute__", "__declspec", "final", "sealed"].contains { word.elementsEqual($0.utf8) }
    }

    private static func isRawPrefix(_ word: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        ["R", "LR", "uR", "UR", "u8R"].contains { word.elementsEqual($0.utf8) }
    }

    /// The index after the `*/` that closes a comment opened before `start`; nil if none does.
    private static func commentEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var j = start
        while j + 1 < bytes.count {
            if bytes[j] == 0x2A && bytes[j + 1] == 0x2F { return j + 2 }
            j += 1
        }
        return nil
    }
}
