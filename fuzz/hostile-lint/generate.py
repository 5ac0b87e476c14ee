#!/usr/bin/env python3
"""Hostile inputs for di-lint: generated source files and configs, reproducible from a seed.

generate.py sources DIR COUNT SEED   writes COUNT source files (.m .c .h .mm .cpp .swift) into DIR
generate.py configs DIR COUNT SEED   writes COUNT directories DIR/cN, each a .di-lint.yml and a.m

Sources are mutated real code (the test fixtures: bytes flipped, slices repeated, cut short) and
made-up attacks: deep and unbalanced brackets, nested macros, includes of devices and of the file
itself, NUL bytes, invalid UTF-8, very long lines and identifiers, many accesses in one function,
deeply nested Swift. Configs are mutated valid configs and YAML attacks (aliases, nesting, wrong
types, unknown keys).
"""
import os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "..", "Tests", "DILintEngineTests", "Fixtures")
ACCESS = ["[Container sharedInstance]", "[[Container sharedInstance] crashReporter]", "Container.sharedInstance.dateProvider",
          "container_shared()->now()", "Container::shared()", "bridge ? bridge.x : Container.sharedInstance.x"]

def corpus():
    files = []
    for root, _, names in os.walk(FIXTURES):
        for n in names:
            if n.rsplit(".", 1)[-1] in ("m", "c", "h", "mm", "cpp", "swift"):
                files.append(open(os.path.join(root, n), "rb").read())
    return files or [b"void f(void) { id x = [Container sharedInstance]; }\n"]

def mutate(r, data):
    data = bytearray(data)
    for _ in range(r.randint(1, 12)):
        op = r.random()
        if not data:
            data += b"{"
        i = r.randrange(len(data))
        if op < 0.3:
            data[i] = r.choice(b"[](){}<>;:?!#\"'\\/*\n\x00\xff") if r.random() < 0.7 else r.randrange(256)
        elif op < 0.5:
            j = min(len(data), i + r.randint(1, 200))
            data[i:i] = data[i:j] * r.randint(1, 50)
        elif op < 0.65:
            del data[i:i + r.randint(1, 100)]
        elif op < 0.8:
            data[i:i] = r.choice(ACCESS).encode()
        else:
            data = data[:i]
    return bytes(data)

def attack(r):
    n = r.randint(1, 3000)
    a = r.choice(ACCESS)
    kind = r.randrange(16)
    if kind == 0: return "void f(void) { id x = " + "[" * n + "Container sharedInstance" + "]" * n + "; }\n"
    if kind == 1: return "void f(void) { int x = " + "(" * n + "1" + ")" * n + "; }\n"
    if kind == 2: return "void f(void) " + "{" * n + a + ";" + "}" * n + "\n"
    if kind == 3: return "#define M(x) [x self]\nvoid f(void) { id y = " + "M(" * min(n, 60) + "Container" + ")" * min(n, 60) + "; }\n"
    if kind == 4: return "void f(void) { " + r.choice(["[", "(", "{", "]", ")", "}", "?", ":"]) * n + a + "; }\n"
    if kind == 5: return "#include \"%s\"\nvoid f(void) { %s; }\n" % (r.choice(["/dev/zero", "/dev/urandom", "/dev/stdin", "/dev/tty", "/proc/self/fd/0", "/nonexistent.h", "/etc/shadow"]), a)
    if kind == 6: return "#include __FILE__\nvoid f(void) { %s; }\n" % a
    if kind == 7: return "void f(void) { " + " ".join("id x%d = %s;" % (i, a) for i in range(n)) + " }"  # one long line
    if kind == 8: return "void " + "a" * (n * 100) + "(void) { %s; }\n" % a
    if kind == 9: return "void f(void) {\n" + ("    if (bridge) { %s; return; }\n    %s;\n" % (a, a)) * min(n, 400) + "}\n"
    if kind == 10: return "let x = " + "[" * min(n, 2000) + "1" + "]" * min(n, 2000) + "\n"
    if kind == 11: return "func f() {\n" + "    if true {\n" * min(n, 600) + "let c = Container.sharedInstance.x\n" + "}\n" * min(n, 600) + "}\n"
    if kind == 12: return "void f(void) { id x = %s; }\n" % a + "\x00" * r.randint(1, 10)
    if kind == 13: return "void f(void) { id x = %s; } // \xff\xfe invalid\n" % a
    if kind == 14: return "void f(void) { " + "bridge ? " * min(n, 500) + a + " : 0" * min(n, 500) + "; }\n"
    return "#if 0\n" * min(n, 300) + a + "\n" + "#endif\n" * r.randint(0, min(n, 300))

EXTENSIONS = ["m", "c", "h", "mm", "cpp", "swift"]

def sources(directory, count, seed):
    r = random.Random(seed)
    seeds = corpus()
    os.makedirs(directory, exist_ok=True)
    for i in range(count):
        if r.random() < 0.5:
            data = mutate(r, r.choice(seeds))
        else:
            text = attack(r)
            data = text.encode("utf-8", "surrogateescape") if "\xff" not in text else text.encode("latin-1", "replace")
        open(os.path.join(directory, "f%06d.%s" % (i, r.choice(EXTENSIONS))), "wb").write(data)

VALID = """containers: [Container.sharedInstance, container_shared(), Container::shared]
bridge: [bridge]
fallback: warn
composition-root:
  paths: ["App/**"]
  functions: [makeBridge]
exclude: ["Vendor/**"]
max-file-size: 100000
rules:
  container-access: error
  unused-suppression: {severity: warning}
"""

def config_attack(r):
    kind = r.randrange(8)
    n = r.randint(1, 40)
    if kind == 0:
        y = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in range(1, r.randint(2, 12)):
            y += "a%d: &a%d [%s]\n" % (i, i, ", ".join("*a%d" % (i - 1) for _ in range(10)))
        return y + "containers: [Container.sharedInstance]\n"
    if kind == 1: return "containers: " + "[" * (n * 30) + "C.shared" + "]" * (n * 30) + "\n"
    if kind == 2: return "containers: " + "{a: " * (n * 30) + "1" + "}" * (n * 30) + "\n"
    if kind == 3: return "containers: [C.shared]\nmax-file-size: %s\n" % r.choice(["-1", "0", "1e400", "99999999999999999999999", "x", "[]", "~"])
    if kind == 4: return "containers: [C.shared]\nexclude: [%s]\n" % ", ".join('"' + "*a" * r.randint(1, 60) + '*b"' for _ in range(n))
    if kind == 5: return "containers: [%s]\n" % ", ".join(r.choice(["''", "'..'", "'C.'", "'.x'", "'a::'", "'f(('", "'\\u0000'", "'C.shared.x.y'"]) for _ in range(n))
    if kind == 6: return "&a [*a]\n"
    return "containers: [C.shared]\nrules: {%s}\n" % ", ".join("%s: %s" % (r.choice(["container-access", "nope", "parse-failure"]), r.choice(["off", "error", "{severity: loud}", "{x: 1}", "[1]"])) for _ in range(n))

def configs(directory, count, seed):
    r = random.Random(seed)
    for i in range(count):
        d = os.path.join(directory, "c%05d" % i)
        os.makedirs(os.path.join(d, "Vendor"), exist_ok=True)
        data = mutate(r, VALID.encode()) if r.random() < 0.5 else config_attack(r).encode()
        open(os.path.join(d, ".di-lint.yml"), "wb").write(data)
        open(os.path.join(d, "a.m"), "w").write("void f(void) { id x = [Container sharedInstance]; }\n")
        open(os.path.join(d, "Vendor", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.m"), "w").write("void g(void) {}\n")

if __name__ == "__main__":
    what, directory, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    {"sources": sources, "configs": configs}[what](directory, count, seed)
