/// What one file says about functions and the calls between them. Extracted on the worker
/// threads, encoded into the file's cacheable outcome, and joined into a project-wide
/// `CallGraph` once every file is in.
struct CallGraphFacts: Equatable {
    /// Function definitions in this file.
    var functions: [FunctionFact] = []
    /// Values stored into function-pointer slots (variables, fields, array elements).
    var stores: [PointerStore] = []
    /// Crash-time handlers this file installs (sigaction, signal, std::set_terminate).
    var registrations: [HandlerRegistration] = []
    /// Functions marked `di-lint:signal-handler` (comment or annotate attribute), declarations included.
    var annotated: [Symbol] = []
    /// C names of Swift functions exported with `@_cdecl` (Swift files).
    var swiftExports: [String] = []
    /// Parameters a function installs as a handler (stores into `sa_handler`/`sa_sigaction`,
    /// passes to `signal()`): every call of it registers what it passes there.
    var installingParameters: [ParameterUse] = []
    /// A function's parameter passed on as another function's argument (installers, transitively).
    var forwards: [ParameterForward] = []
    /// Functions passed as an argument of a call (registrations when the callee installs it).
    var functionArguments: [FunctionArgument] = []
    /// Names of the function-like macros this file defines: a call to one is no call.
    var macros: [String] = []
    /// `f(SIGTERM, h)` with `f` not defined in this file (`pqsignal` from a library's header):
    /// `h` is registered when no file of the run defines `f` either (argument 1 is `h`).
    var signalArguments: [FunctionArgument] = []
    /// The macros this file defines that a call may name where the parse did not see them (the
    /// function-like ones, and object-like ones whose body calls): expanded by `CallGraph` at such calls.
    var macroDefinitions: [MacroDefinition] = []
    /// File names (no directories) of the headers the translation unit includes, when a call in
    /// it is by name only: a `static` definition elsewhere satisfies it only from one of these.
    var includedFiles: [String] = []
}

/// Parameter `index` (0-based) of `function`.
struct ParameterUse: Equatable {
    var function: Symbol
    var index: Int
    var mechanism: HandlerRegistration.Mechanism
}

/// `function`'s parameter `parameter` passed as argument `argument` of a call to `callee`.
struct ParameterForward: Equatable {
    var function: Symbol
    var parameter: Int
    var callee: Symbol
    var argument: Int
}

/// The function `value` passed as argument `argument` of a call to `callee`.
struct FunctionArgument: Equatable {
    var callee: Symbol
    var argument: Int
    var value: Symbol
    var position: SitePosition
}

/// A function or a function-pointer slot: clang's USR (unique across files) and a readable name.
struct Symbol: Hashable, Comparable {
    var usr: String
    /// Qualified for C++ (`seam::Writer::put`), plain for C.
    var name: String

    static func < (a: Symbol, b: Symbol) -> Bool { (a.name, a.usr) < (b.name, b.usr) }
}

/// A place in a file. A finding made there reads its snippet from the file (`SourceSnippets`):
/// the facts keep the byte offset, not the text (a snippet per site was most of a large file's
/// facts, written, cached and read back whether or not a finding needed it).
struct SitePosition: Equatable {
    var line: Int
    var column: Int
    var offset: Int
}

struct FunctionFact: Equatable {
    var symbol: Symbol
    var position: SitePosition
    var sites: [CallSite]
    /// Statements of the body that did not resolve (a name from a missing header, code under
    /// `#if` on an unknown macro): their calls were read from the tokens, the rest is unknown.
    var unresolvedStatements: Int = 0
    /// A stand-in for a function a system header declares (`snprintf` under `#if !HAVE_SNPRINTF`),
    /// compiled only under a condition the run cannot show is taken: a call by name keeps the
    /// system library's meaning, and its findings name this definition. The `#if` lines open at
    /// the definition (`#if !defined(HAVE_SNPRINTF)`); nil for any other function.
    var shimCondition: String?

    var conditionalShim: Bool { shimCondition != nil }
}

/// Something a function body does that crash-time analysis cares about.
struct CallSite: Equatable {
    enum Kind: String {
        /// A call to a named function (`target`).
        case call
        /// A call through the function-pointer slot `target`.
        case pointerCall
        /// An Objective-C message send or property access (`detail`: the selector).
        case objcMessage
        /// `@throw`, `@synchronized`, `@try`, `@autoreleasepool` (`detail`).
        case objcRuntime
        case cxxNew, cxxDelete, cxxThrow
        /// A container access (`detail`: the expression).
        case container
        /// A use of the injected bridge (`detail`: the name).
        case bridge
    }

    /// What the extractor knew about a called function from its declaration.
    enum CalleeTrait: String {
        /// Implemented in Swift: `external_source_symbol(language="Swift")`, `swift_name`, a Swift-mangled name or asm label.
        case swift
        /// A C inline helper defined in a system header (byte swaps, fortify wrappers): not followed.
        case systemInline
    }

    var kind: Kind
    var target: Symbol?
    var trait: CalleeTrait?
    var detail: String?
    var position: SitePosition
    /// Reached only when an async-signal-safe call before it failed (`if (sigaction(…) == -1) { … }`).
    var onErrorPath = false
    /// A call by name read from tokens: its `(`…`)` tokens. When another file of the run defines
    /// a macro of that name, it is expanded with these arguments (`CallGraph.resolve`).
    var invocation: [String]?
}

/// `slot = value`: `value` is the function stored, or nil for anything the analysis cannot see
/// through (another pointer, a parameter, the slot's address handed out). Null stores are dropped.
struct PointerStore: Equatable {
    var slot: Symbol
    var value: Symbol?
}

struct HandlerRegistration: Equatable {
    enum Mechanism: String {
        case sigaction
        case signal
        case terminate = "std::set_terminate"
        case configuration = "configured"
        case annotation = "annotated"
    }

    var handler: Symbol
    var mechanism: Mechanism
    var position: SitePosition
    /// `handler` is a function-pointer slot (a table's field, a variable): every function stored
    /// into it is a handler.
    var throughSlot = false
}
