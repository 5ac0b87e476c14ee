import XCTest

@testable import DILintEngine

/// `DefinitionSites.scan`: which words a C or C++ text spells where a function could be defined.
final class DefinitionSitesTests: XCTestCase {
    private func sites(_ text: String) -> DefinitionSites? {
        Array(text.utf8).withUnsafeBufferPointer { DefinitionSites.scan($0) }
    }

    private func words(_ hashes: [UInt64], among candidates: [String]) -> [String] {
        candidates.filter { hashes.sortedContains(DemandText.hash($0)) }
    }

    func testNamespaceAndLinkageBlocksKeepTheirContentAtNamespaceScope() throws {
        let s = try XCTUnwrap(
            sites(
                """
                namespace a { namespace { int hidden() { return inner(); } } }
                extern "C" { void c_fn(void) { call_in_c(); } }
                namespace b::c { struct T { void member() { body_word(); } }; void T::outer() {} }
                static int file_fn(int x) { return x; }
                """))
        let all = ["a", "hidden", "inner", "c_fn", "call_in_c", "T", "member", "body_word", "outer", "file_fn", "x"]
        XCTAssertEqual(words(s.namespaceScope, among: all), ["a", "hidden", "c_fn", "T", "outer", "file_fn", "x"])
        // global: outside named namespaces (or in extern "C"), not after `T::`
        XCTAssertEqual(words(s.globalScope, among: all), ["a", "c_fn", "file_fn", "x"])
        XCTAssertEqual(words(s.heads, among: all + ["b", "c"]), ["a", "T", "b", "c"])
        XCTAssertFalse(s.anonymousClass)
    }

    func testStringsCommentsRawStringsAndDigitSeparatorsHoldNoBraces() throws {
        let s = try XCTUnwrap(
            sites(
                #"""
                const char *a = "{ \" {"; // {
                /* { */ char b = '{';
                const char *r = R"x({ )" })x";
                int n = 1'000'000;
                void after() {}
                """#))
        XCTAssertEqual(words(s.globalScope, among: ["after", "n", "r"]), ["after", "n", "r"])
    }

    func testFriendsAndMacroNamesCountAsGlobal() throws {
        let s = try XCTUnwrap(
            sites(
                """
                #define MAKE(x) x
                struct Box { friend void open_box(Box &) { inside(); } int field; };
                """))
        XCTAssertEqual(words(s.globalScope, among: ["MAKE", "open_box", "inside", "field"]), ["MAKE", "open_box"])
    }

    func testOnlyTheFirstBranchOfAConditionalCountsItsBraces() throws {
        let s = try XCTUnwrap(
            sites(
                """
                #if defined(A)
                void f(int a) {
                #else
                void f(long a) {
                #endif
                  in_body();
                }
                void g() {}
                """))
        XCTAssertEqual(words(s.globalScope, among: ["f", "in_body", "g"]), ["f", "g"])
    }

    func testAnonymousClassesAreMarked() throws {
        XCTAssertEqual(sites("typedef struct { int x; } T;")?.anonymousClass, true)
        XCTAssertEqual(sites("struct alignas(8) final { int x; } t;")?.anonymousClass, true)
        XCTAssertEqual(sites("struct S : Base { int x; };")?.anonymousClass, false)
        XCTAssertEqual(sites("template <class T> void f(T) {}")?.anonymousClass, false)
    }

    func testTextItCannotReadGivesNil() {
        XCTAssertNil(sites("@implementation A\n- (void)f {}\n@end\n"))
        XCTAssertNil(sites("void f() {\n"))
        XCTAssertNil(sites("}\nvoid f() {}\n"))
        XCTAssertNil(sites("/* never closed"))
        XCTAssertNil(sites(#"const char *r = R"x(never closed"#))
    }

    func testAMemberOperatorIsLookedUpByItsClass() throws {
        let op = try XCTUnwrap(NeededDefinition(qualified: "std::optional<int>::operator="))
        XCTAssertEqual(op.word, DemandText.hash("optional"))
        XCTAssertEqual(op.scope, DemandText.hash("optional"))
        XCTAssertTrue(op.reserved)
        XCTAssertNil(NeededDefinition(qualified: "operator=="))
        let member = try XCTUnwrap(NeededDefinition(qualified: "a::Writer::write"))
        XCTAssertEqual(member.scope, DemandText.hash("Writer"))
        XCTAssertFalse(member.reserved)
        XCTAssertNil(try XCTUnwrap(NeededDefinition(qualified: "write")).scope)
    }
}
