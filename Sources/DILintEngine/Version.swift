import CLibClang
public enum DILint { public static var libclangVersion: String { let s = clang_getClangVersion(); defer { clang_disposeString(s) }; return String(cString: clang_getCString(s)) } }
