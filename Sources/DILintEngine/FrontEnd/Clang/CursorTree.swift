import CLibClang

/// The subtree under one cursor (a function definition), read from libclang in one recursive
/// visit: the children of each node, and its extent's offsets once asked, without a
/// `clang_visitChildren` (and an array) per node and question. The call-graph extractor asked
/// libclang for the same cursors' children several times each: a third of its time on a file of
/// many small functions.
///
/// A node's children here are what `clang_visitChildren` gives for it (the recursive visit calls
/// the same visitor for each node as a visit of that node does); a cursor not in the subtree
/// (a declaration elsewhere, a referenced cursor) is asked of libclang.
final class CursorTree {
    // (a class: the extractor asks it many times per function, a struct was copied each time;
    // one per extractor, its storage kept from function to function. Used by one thread, never
    // re-entered: its fields go without the run-time exclusivity checks, a fifth of its time.)
    /// Nodes in visiting order (pre-order), the root first.
    @exclusivity(unchecked) private var nodes: [CXCursor] = []
    /// Each node's parent's index (-1 for the root), while the visit runs.
    @exclusivity(unchecked) private var parents: [Int32] = []
    /// The path from the root to the last node visited.
    @exclusivity(unchecked) private var stack: [Int32] = []
    @exclusivity(unchecked) private var failed = false
    /// Node k's children are `children[childStart[k]..<childStart[k + 1]]`, in source order.
    @exclusivity(unchecked) private var childStart: [Int32] = []
    @exclusivity(unchecked) private var fill: [Int32] = []
    @exclusivity(unchecked) private var children: [CXCursor] = []
    /// Open addressing: node index + 1 by the cursor's bits (0 is empty).
    @exclusivity(unchecked) private var slots: [Int32] = []
    /// Extent offsets per node once asked (`offsetsKnown`).
    @exclusivity(unchecked) private var offsetsCache: [Range<Int>?] = []
    @exclusivity(unchecked) private var offsetsKnown: [Bool] = []

    /// Whether a subtree is loaded and was read whole (false: none, or a parent the visit named
    /// was not on its path; every question then goes to libclang).
    @exclusivity(unchecked) private(set) var valid = false

    init() {}

    /// Forgets the subtree (keeping the storage): every question goes to libclang.
    func clear() { valid = false }

    /// Reads the subtree under `root`.
    func load(_ root: CXCursor) {
        valid = false
        failed = false
        nodes.removeAll(keepingCapacity: true)
        parents.removeAll(keepingCapacity: true)
        stack.removeAll(keepingCapacity: true)
        nodes.append(root)
        parents.append(-1)
        stack.append(0)
        _ = clang_visitChildren(
            root,
            { child, parent, data in
                let tree = Unmanaged<CursorTree>.fromOpaque(data!).takeUnretainedValue()
                return tree.visited(child, parent: parent)
            }, Unmanaged.passUnretained(self).toOpaque())
        guard !failed else { return }
        let n = nodes.count
        childStart.removeAll(keepingCapacity: true)
        childStart.append(contentsOf: repeatElement(0, count: n + 1))
        for k in 1..<n { childStart[Int(parents[k]) + 1] += 1 }
        for k in 0..<n { childStart[k + 1] += childStart[k] }
        fill.removeAll(keepingCapacity: true)
        fill.append(contentsOf: childStart)
        children.removeAll(keepingCapacity: true)
        children.append(contentsOf: repeatElement(root, count: n - 1))
        for k in 1..<n {
            let p = Int(parents[k])
            children[Int(fill[p])] = nodes[k]
            fill[p] += 1
        }
        var size = 16
        while size < n * 2 { size <<= 1 }
        slots.removeAll(keepingCapacity: true)
        slots.append(contentsOf: repeatElement(0, count: size))
        let mask = size - 1
        // A cursor seen twice names its last node: libclang hands out a wrapper (`ConstantExpr`
        // around a `case` label's name) as the cursor of the expression inside, then that
        // expression again as its child; a visit of the cursor itself gives the inner node's children.
        for k in 0..<n {
            var slot = CursorTree.hash(nodes[k]) & mask
            while slots[slot] != 0 && !CursorTree.sameNode(nodes[Int(slots[slot]) - 1], nodes[k]) {
                slot = (slot + 1) & mask
            }
            slots[slot] = Int32(k + 1)
        }
        offsetsCache.removeAll(keepingCapacity: true)
        offsetsCache.append(contentsOf: repeatElement(nil, count: n))
        offsetsKnown.removeAll(keepingCapacity: true)
        offsetsKnown.append(contentsOf: repeatElement(false, count: n))
        valid = true
    }

    /// One node of the visit: its parent is on the path (the visit went back up to it).
    private func visited(_ child: CXCursor, parent: CXCursor) -> CXChildVisitResult {
        while let top = stack.last, !CursorTree.same(nodes[Int(top)], parent) { stack.removeLast() }
        guard let top = stack.last else {
            failed = true
            return CXChildVisit_Break
        }
        nodes.append(child)
        parents.append(top)
        stack.append(Int32(nodes.count - 1))
        return CXChildVisit_Recurse
    }

    /// The same cursor: every field alike (what the visitor hands out for one node).
    static func same(_ a: CXCursor, _ b: CXCursor) -> Bool {
        a.kind == b.kind && a.xdata == b.xdata && a.data.0 == b.data.0 && a.data.1 == b.data.1 && a.data.2 == b.data.2
    }

    /// Whether a statement or an expression: its cursor's first field is the declaration the
    /// visit came through, which a visit started at the statement itself leaves null (libclang
    /// sets it only below a declaration). Nothing the extractor asks of such a cursor reads it.
    static func isStatementOrExpression(_ kind: CXCursorKind) -> Bool {
        let k = kind.rawValue
        return (k >= CXCursor_FirstExpr.rawValue && k <= CXCursor_LastExpr.rawValue)
            || (k >= CXCursor_FirstStmt.rawValue && k <= CXCursor_LastStmt.rawValue)
    }

    /// The same node: `same`, the first field left out for statements and expressions.
    static func sameNode(_ a: CXCursor, _ b: CXCursor) -> Bool {
        a.kind == b.kind && a.xdata == b.xdata && a.data.1 == b.data.1 && a.data.2 == b.data.2
            && (a.data.0 == b.data.0 || isStatementOrExpression(a.kind))
    }

    /// Over the fields `sameNode` compares in every case.
    private static func hash(_ c: CXCursor) -> Int {
        var h = UInt64(UInt(bitPattern: c.data.1)) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt64(c.kind.rawValue) << 32 ^ UInt64(UInt32(bitPattern: c.xdata))
        h ^= UInt64(UInt(bitPattern: c.data.2))
        h = (h ^ (h >> 31)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    /// The node index of a cursor of the subtree.
    func node(_ c: CXCursor) -> Int? {
        guard valid else { return nil }
        let mask = slots.count - 1
        var slot = CursorTree.hash(c) & mask
        while slots[slot] != 0 {
            let k = Int(slots[slot]) - 1
            if CursorTree.sameNode(nodes[k], c) { return k }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The children of node k.
    func children(ofNode k: Int) -> CursorList {
        CursorList(children[Int(childStart[k])..<Int(childStart[k + 1])])
    }

    /// The children of a cursor: from the subtree when it is there, else from libclang.
    func children(_ c: CXCursor) -> CursorList {
        if let k = node(c) { return children(ofNode: k) }
        return CursorList(Cursors.children(c)[...])
    }

    /// `Cursors.offsets` of a cursor, asked of libclang once per node of the subtree.
    func offsets(_ c: CXCursor, in file: ParsedFile) -> Range<Int>? {
        guard let k = node(c) else { return Cursors.offsets(c, in: file) }
        if offsetsKnown[k] { return offsetsCache[k] }
        let range = Cursors.offsets(c, in: file)
        offsetsCache[k] = range
        offsetsKnown[k] = true
        return range
    }
}

/// Cursors indexed from 0 (a slice of a `CursorTree`'s storage or a whole array).
struct CursorList: RandomAccessCollection {
    private let storage: ArraySlice<CXCursor>

    init(_ storage: ArraySlice<CXCursor>) { self.storage = storage }

    var startIndex: Int { 0 }
    var endIndex: Int { storage.count }
    subscript(i: Int) -> CXCursor { storage[storage.startIndex + i] }
}
