/// SHA-256 (FIPS 180-4), for content-addressed cache keys, fingerprints and shard assignment.
/// Foundation on Linux has no digest API, and the package takes no crypto dependency for this.
public struct SHA256 {
    /// The eight state words.
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    private static let initial: State = (
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    )
    private var state = SHA256.initial
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() { pending.reserveCapacity(64) }

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let array = Array(bytes)
        array.withUnsafeBytes { update($0) }
    }

    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, buffer.count)
            pending.append(contentsOf: buffer[0..<take])
            offset = take
            if pending.count < 64 { return }
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        while buffer.count - offset >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + 64]))
            offset += 64
        }
        pending.append(contentsOf: buffer[offset...])
    }

    public mutating func update(_ string: String) {
        var string = string
        string.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The 32-byte digest; the hasher must not be used afterwards.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8 &+ UInt64(pending.count) &* 8
        pending.append(0x80)
        if pending.count > 56 {
            while pending.count < 64 { pending.append(0) }
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        while pending.count < 56 { pending.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        pending.withUnsafeBytes { compress($0) }
        var digest = [UInt8](repeating: 0, count: 32)
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        for (i, word) in words.enumerated() {
            digest[4 * i] = UInt8(truncatingIfNeeded: word >> 24)
            digest[4 * i + 1] = UInt8(truncatingIfNeeded: word >> 16)
            digest[4 * i + 2] = UInt8(truncatingIfNeeded: word >> 8)
            digest[4 * i + 3] = UInt8(truncatingIfNeeded: word)
        }
        return digest
    }

    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        length &+= 64
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            Self.compress(&state, block.baseAddress!, schedule: w)
        }
    }

    /// One 64-byte block into `h`; `schedule` is room for 64 words.
    private static func compress(
        _ h: inout State, _ p: UnsafeRawPointer, schedule w: UnsafeMutableBufferPointer<UInt32>
    ) {
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        for i in 0..<16 {
            w[i] =
                UInt32(p.load(fromByteOffset: 4 * i, as: UInt8.self)) << 24
                | UInt32(p.load(fromByteOffset: 4 * i + 1, as: UInt8.self)) << 16
                | UInt32(p.load(fromByteOffset: 4 * i + 2, as: UInt8.self)) << 8
                | UInt32(p.load(fromByteOffset: 4 * i + 3, as: UInt8.self))
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, hh) = h
        k.withUnsafeBufferPointer { k in
            for i in 0..<64 {
                let t1 = hh &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                hh = g; g = f; f = e; e = d &+ t1
                d = c; c = b; b = a; a = t1 &+ t2
            }
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
    }

    /// Lower-case hex digest of `bytes`.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hexString(hasher.finalize())
    }

    public static func hex(_ string: String) -> String {
        var hasher = SHA256()
        hasher.update(string)
        return hexString(hasher.finalize())
    }

    /// The first 32 hex digits of the digest of `message` (its first 16 bytes), as
    /// `String(hex(message).prefix(32))`, in one pass with no allocation but the result's.
    static func hexPrefix32(_ message: UnsafeRawBufferPointer) -> String {
        var h = initial
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                let count = message.count
                var offset = 0
                while count - offset >= 64 {
                    compress(&h, message.baseAddress! + offset, schedule: w)
                    offset += 64
                }
                // the padding: 0x80, zeros, the bit length big-endian, to one or two blocks
                let rest = count - offset
                let padded = rest + 9 <= 64 ? 64 : 128
                for i in 0..<padded { tail[i] = 0 }
                for i in 0..<rest { tail[i] = message[offset + i] }
                tail[rest] = 0x80
                let bits = UInt64(count) &* 8
                for i in 0..<8 { tail[padded - 1 - i] = UInt8(truncatingIfNeeded: bits >> UInt64(8 * i)) }
                let base = UnsafeRawPointer(tail.baseAddress!)
                compress(&h, base, schedule: w)
                if padded == 128 { compress(&h, base + 64, schedule: w) }
            }
        }
        return String(unsafeUninitializedCapacity: 32) { out in
            let digits: StaticString = "0123456789abcdef"
            let d = digits.utf8Start
            func put(_ word: UInt32, at start: Int) {
                for j in 0..<8 { out[start + j] = d[Int((word >> UInt32(28 - 4 * j)) & 15)] }
            }
            put(h.0, at: 0)
            put(h.1, at: 8)
            put(h.2, at: 16)
            put(h.3, at: 24)
            return 32
        }
    }

    static func hexString(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digest.count * 2)
        for byte in digest { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
