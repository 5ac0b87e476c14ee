#!/usr/bin/env python3
"""Hostile baselines and shards for di-lint, mutated from real ones, reproducible from a seed.

generate.py inputs DIR COUNT SEED SEEDFILE...   writes COUNT files DIR/NNNNNN.<kind> (kind: the
    seed file's suffix after its first dot: baseline.json, json, sarif), each a mutation of one of
    the SEEDFILEs (what di-lint wrote: a baseline, JSON and SARIF outputs)
generate.py large FILE BYTES                   writes a compact baseline of about BYTES bytes in
    the layout di-lint writes (the D6 measurement: a 294 MB baseline of 3.5 million entries)

Mutations, one to four per file (for three files in ten, milder ones di-lint should take: other
values in range, entries dropped or repeated): integers made huge, negative, past 2^63 or written as 1e400,
2.0 or with 10,000 digits; durations made 1e308, 1e400 or negative; strings made huge (up to
8 MB, rarely 50 MB), empty, full of control characters, lone surrogate escapes or invalid UTF-8;
values given another type; keys deleted, repeated or added; values nested up to 100,000 deep;
arrays emptied or repeated; levels, states and tool names changed; then, for some, the bytes:
cut short, flipped, a byte order mark, UTF-16.
"""
import hashlib, json, os, random, sys

class Raw:
    """A value written as these bytes, whatever they are (1e400, NaN, 10,000 digits, invalid UTF-8)."""
    def __init__(self, data): self.data = data if isinstance(data, bytes) else data.encode()

def dump(value, out):
    if isinstance(value, Raw): out.append(value.data)
    elif isinstance(value, dict):
        out.append(b"{")
        for i, (k, v) in enumerate(value.items() if not isinstance(value, Pairs) else value.pairs):
            if i: out.append(b",")
            dump(k, out); out.append(b":"); dump(v, out)
        out.append(b"}")
    elif isinstance(value, list):
        out.append(b"[")
        for i, v in enumerate(value):
            if i: out.append(b",")
            dump(v, out)
        out.append(b"]")
    else: out.append(json.dumps(value).encode())

class Pairs(dict):
    """An object whose members may repeat a key."""
    def __init__(self, pairs): super().__init__(); self.pairs = pairs

def paths(value, prefix=()):
    """Every place in the tree: (path, value)."""
    yield prefix, value
    if isinstance(value, dict):
        for k, v in value.items(): yield from paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value): yield from paths(v, prefix + (i,))

def put(tree, path, value):
    if not path: return value
    node = tree
    for p in path[:-1]: node = node[p]
    node[path[-1]] = value
    return tree

def big_string(r):
    n = r.choice([1000, 100_000, 1 << 20, 8 << 20]) if r.random() < 0.97 else 50 << 20
    return Raw(b'"' + (b"x" * n) + b'"')

def integer(r):
    return Raw(r.choice([str(2**63), str(-2**63 - 1), str(2**64), str(10**30), "-1", "0", "-7", "1e400", "-1e400", "1e308",
                         "1.5", "2.0", "1e2", "-0", str(2**63 - 1), str(-2**63), "1" + "0" * 10_000, "0." + "0" * 5000 + "1",
                         "1e9999999999999999999", "01", "1.", ".5", "+1", "NaN", "Infinity", "0x10", "1e", "--1"]))

def duration(r):
    return Raw(r.choice(["1e308", "1e400", "-1e400", "-1", "0", "1e-400", "1.7976931348623157e308", "3.3e9", "NaN", "Infinity",
                         "-0.0", "123456789012345678901234567890", "4e9"]))

def string(r):
    k = r.randrange(10)
    if k == 0: return big_string(r)
    if k == 1: return ""
    if k == 2: return "".join(chr(r.randrange(0, 32)) for _ in range(r.randint(1, 50)))
    if k == 3: return Raw(r.choice([b'"\\ud800"', b'"\\udc00x"', b'"\\ud83d\\u0041"', b'"\\x"', b'"\\u12"']))
    if k == 4: return Raw(b'"' + r.choice([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf"]) + b'"')
    if k == 5: return r.choice(["../../../etc/passwd", "/dev/zero", "-x.m", "@/dev/zero", "a:0", ":", "%SRCROOT%", "a\nb"])
    if k == 6: return "é€😀\u2028\u2029\u0000" * r.randint(1, 100)
    if k == 7: return r.choice(["fatal", "error", "none", "new", "absent", "external", "inSource", "rejected", "di-lint", "other-lint", "2.0.0", "0.1.0", "9.9.9"])
    return "s" * r.randint(0, 40)

def other_type(r):
    return r.choice([[], {}, None, True, False, "text", 5, -5, 1.5, [1, [2]], {"a": {"b": None}}])

def nested(r):
    n = r.choice([10, 63, 64, 65, 100, 1000, 100_000])
    return Raw(b"[" * n + b"]" * n) if r.random() < 0.5 else Raw(b'{"a":' * n + b"1" + b"}" * n)

def mild(r, tree):
    """A change di-lint should take: another line, count or string in range, entries repeated or dropped."""
    places = [(p, v) for p, v in paths(tree) if p]
    path, value = r.choice(places)
    if isinstance(value, bool): return tree
    if isinstance(value, int): return put(tree, path, r.choice([1, 2, value + 1, 10**6, 2**31, 2**53]))
    if isinstance(value, float): return put(tree, path, r.choice([0.0, 0.5, 1e3, 86400.0]))
    if isinstance(value, str) and path[-1] not in ("level", "severity", "baselineState", "kind", "status", "name", "version",
                                                   "semanticVersion", "columnKind", "$schema"):
        return put(tree, path, r.choice(["", "é€😀", "a" * 1000, value + ":1", "x\ny"]))
    if isinstance(value, list) and value:
        if r.random() < 0.5: del value[r.randrange(len(value))]
        else: value.extend(value[:1] * r.randint(1, 200))
    return tree

def mutate_tree(r, tree):
    places = list(paths(tree))
    path, value = r.choice(places)
    op = r.randrange(12)
    if op <= 2 and isinstance(value, bool) is False and isinstance(value, (int, float)):
        return put(tree, path, duration(r) if isinstance(value, float) or path[-1:] == ("seconds",) else integer(r))
    if op == 3: return put(tree, path, string(r))
    if op == 4: return put(tree, path, other_type(r))
    if op == 5: return put(tree, path, nested(r))
    if op == 6 and isinstance(value, dict) and value:
        key = r.choice(list(value))
        if r.random() < 0.5: del value[key]
        else: return put(tree, path, Pairs(list(value.items()) + [(key, r.choice([value[key], other_type(r), integer(r)]))]))
        return tree
    if op == 7 and isinstance(value, dict):
        value[r.choice(["extra", "version", "tool", "x" * 100, "\u0000", "runs", "findings"])] = r.choice([other_type(r), nested(r), integer(r)])
        return tree
    if op == 8 and isinstance(value, list):
        if value and r.random() < 0.7: value.extend(value * r.choice([1, 10, 1000]))
        else: value.clear()
        return tree
    if op == 9:
        # a field di-lint checks by name, to a value it should refuse
        for p, v in places:
            if p and p[-1] in ("line", "column", "startLine", "startColumn", "files", "parsed", "cached", "notLinted", "stale", "findings",
                               "errors", "newErrors", "handlerFunctionsReadPartly", "version", "scheme", "ruleIndex", "byteOffset", "byteLength") \
                    and isinstance(v, int) and not isinstance(v, bool) and r.random() < 0.3:
                put(tree, p, Raw(r.choice(["-7", "0", str(2**63), str(2**63 - 1), "-1", "1e400"])))
            if p and p[-1] in ("level", "severity", "baselineState", "kind", "status", "name", "columnKind", "fingerprint") \
                    and isinstance(v, str) and r.random() < 0.3:
                put(tree, p, string(r))
        return tree
    if op == 10 and isinstance(value, (int, float)) and not isinstance(value, bool):
        return put(tree, path, integer(r))
    return put(tree, path, r.choice([string(r), integer(r), other_type(r)]))

def mutate_bytes(r, data):
    data = bytearray(data)
    op = r.randrange(6)
    if op == 0 and data: return bytes(data[:r.randrange(len(data))])
    if op == 1 and data:
        for _ in range(r.randint(1, 20)): data[r.randrange(len(data))] = r.randrange(256)
        return bytes(data)
    if op == 2: return b"\xef\xbb\xbf" + bytes(data)
    if op == 3: return bytes(data).decode("utf-8", "replace").encode("utf-16")
    if op == 4 and data:
        i = r.randrange(len(data)); return bytes(data[:i]) + r.choice([b"\x00", b"\xff", b"[", b"{", b'"', b"\\", b",", b"]]]", b"1e400"]) + bytes(data[i:])
    return bytes(data) + r.choice([b"", b" x", b"{}", b"\n\n"])

def inputs(directory, count, seed, seed_files):
    r = random.Random(seed)
    seeds = []
    for f in seed_files:
        kind = os.path.basename(f).split(".", 1)[1]
        seeds.append((kind, open(f, "rb").read()))
    os.makedirs(directory, exist_ok=True)
    for i in range(count):
        kind, data = r.choice(seeds)
        tree = json.loads(data)
        if r.random() < 0.3:
            for _ in range(r.randint(1, 3)): tree = mild(r, tree)
        else:
            for _ in range(r.randint(1, 4)): tree = mutate_tree(r, tree)
        out = []
        dump(tree, out)
        data = b"".join(out)
        if r.random() < 0.2: data = mutate_bytes(r, data)
        open(os.path.join(directory, "%06d.%s" % (i, kind)), "wb").write(data)

def large(path, size):
    """A compact baseline (no white space) of about `size` bytes in di-lint's layout (entries in
    the order di-lint writes them: by path, then line)."""
    with open(path, "w") as out:
        out.write('{"entries":[')
        written, i = 12, 0
        while written < size:
            e = '%s{"fingerprint":"%s:0","line":%d,"path":"F%06d.m","rule":"container-access"}' % (
                "," if i else "", hashlib.md5(str(i).encode()).hexdigest(), i % 5000 + 1, i // 100)
            out.write(e)
            written += len(e)
            i += 1
        out.write('],"tool":"di-lint","toolVersion":"0.1.0","version":2}\n')
    print("%s: %d entries, %d bytes" % (path, i, os.path.getsize(path)))

if __name__ == "__main__":
    if sys.argv[1] == "large":
        large(sys.argv[2], int(sys.argv[3]))
    else:
        inputs(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:])
