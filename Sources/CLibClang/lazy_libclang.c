// Lazy libclang: see include/CLibClang.h. Every trampoline's signature is checked by the
// compiler against libclang's own prototype (the headers declare the same names), so a wrong
// parameter list is a build error, not a crash. LibClangLoadingTests checks that every clang_*
// function the engine calls has a trampoline here (a missing one is a link error anyway).
#include "CLibClang.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SEAM_LIBCLANG_DIR
#define SEAM_LIBCLANG_DIR "/usr/lib"
#endif

static pthread_once_t path_once = PTHREAD_ONCE_INIT;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char library_path[4096];
static void *library;
enum { IDLE, LOADING, DONE };
static int state = IDLE; // LOADING from seam_libclang_preload until load() has finished
static char load_error[4352];

static void find_path(void) {
    const char *chosen = getenv("DI_LINT_LIBCLANG");
    if (chosen == NULL || chosen[0] == '\0') {
        static const char *const candidates[] = {SEAM_LIBCLANG_DIR "/libclang.so.1", SEAM_LIBCLANG_DIR "/libclang.so"};
        chosen = "libclang.so.1"; // left to the dynamic linker's search path
        for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
            if (access(candidates[i], R_OK) == 0) {
                chosen = candidates[i];
                break;
            }
        }
    }
    snprintf(library_path, sizeof library_path, "%s", chosen);
}

const char *seam_libclang_path(void) {
    pthread_once(&path_once, find_path);
    return library_path;
}

static void load(void) {
    const char *path = seam_libclang_path();
    library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    __atomic_store_n(&state, DONE, __ATOMIC_RELEASE);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load libclang from '%s': %s (install libclang-dev, or set DI_LINT_LIBCLANG to the library)",
                 path, why ? why : "unknown error");
    }
}

int seam_libclang_is_loading(void) {
    return __atomic_load_n(&state, __ATOMIC_ACQUIRE) == LOADING;
}

const char *seam_libclang_load_error(void) {
    pthread_once(&load_once, load);
    return library ? NULL : load_error;
}

static void *preload_thread(void *unused) {
    (void)unused;
    (void)seam_libclang_load_error();
    return NULL;
}

void seam_libclang_preload(void) {
    int idle = IDLE;
    if (!__atomic_compare_exchange_n(&state, &idle, LOADING, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return;
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&thread, &attributes, preload_thread, NULL) != 0) {
        (void)seam_libclang_load_error(); // no thread: load now
    }
    pthread_attr_destroy(&attributes);
}

/// The real function, loading the library first. Callers check seam_libclang_load_error()
/// before parsing; reaching here without a library (or with one lacking the symbol) is a bug
/// or a broken install, reported and fatal.
static void *resolve(const char *name) {
    const char *error = seam_libclang_load_error();
    void *symbol = error ? NULL : dlsym(library, name);
    if (symbol == NULL) {
        fprintf(stderr, "di-lint: %s\n", error ? error : "libclang lacks a function di-lint needs");
        fprintf(stderr, "di-lint: needed %s from %s\n", name, seam_libclang_path());
        _exit(2);
    }
    return symbol;
}

#define REAL(name)                                                                 \
    static __typeof__(&name) real;                                                 \
    __typeof__(&name) fn = __atomic_load_n(&real, __ATOMIC_ACQUIRE);               \
    if (fn == NULL) {                                                              \
        fn = (__typeof__(&name))resolve(#name);                                    \
        __atomic_store_n(&real, fn, __ATOMIC_RELEASE);                             \
    }

#define FORWARD(ret, name, params, args) \
    ret name params {                    \
        REAL(name)                       \
        return fn args;                  \
    }

#define FORWARD_VOID(name, params, args) \
    void name params {                   \
        REAL(name)                       \
        fn args;                         \
    }

// Index
FORWARD(CXIndex, clang_createIndex, (int a, int b), (a, b))
FORWARD_VOID(clang_disposeIndex, (CXIndex a), (a))
FORWARD(enum CXErrorCode, clang_parseTranslationUnit2,
        (CXIndex a, const char *b, const char *const *c, int d, struct CXUnsavedFile *e, unsigned f, unsigned g, CXTranslationUnit *h),
        (a, b, c, d, e, f, g, h))
FORWARD_VOID(clang_disposeTranslationUnit, (CXTranslationUnit a), (a))
FORWARD(CXIndexAction, clang_IndexAction_create, (CXIndex a), (a))
FORWARD_VOID(clang_IndexAction_dispose, (CXIndexAction a), (a))
FORWARD(int, clang_indexSourceFileFullArgv,
        (CXIndexAction a, CXClientData b, IndexerCallbacks *c, unsigned d, unsigned e, const char *f, const char *const *g, int h,
         struct CXUnsavedFile *i, unsigned j, CXTranslationUnit *k, unsigned l),
        (a, b, c, d, e, f, g, h, i, j, k, l))
FORWARD(int, clang_saveTranslationUnit, (CXTranslationUnit a, const char *b, unsigned c), (a, b, c))
FORWARD(CXString, clang_getClangVersion, (void), ())
FORWARD(const char *, clang_getCString, (CXString a), (a))
FORWARD_VOID(clang_disposeString, (CXString a), (a))

// Diagnostics
FORWARD(unsigned, clang_getNumDiagnostics, (CXTranslationUnit a), (a))
FORWARD(CXDiagnostic, clang_getDiagnostic, (CXTranslationUnit a, unsigned b), (a, b))
FORWARD(enum CXDiagnosticSeverity, clang_getDiagnosticSeverity, (CXDiagnostic a), (a))
FORWARD_VOID(clang_disposeDiagnostic, (CXDiagnostic a), (a))
FORWARD(CXString, clang_getDiagnosticSpelling, (CXDiagnostic a), (a))
FORWARD(CXSourceLocation, clang_getDiagnosticLocation, (CXDiagnostic a), (a))

// Cursors
FORWARD(CXCursor, clang_getTranslationUnitCursor, (CXTranslationUnit a), (a))
FORWARD(unsigned, clang_visitChildren, (CXCursor a, CXCursorVisitor b, CXClientData c), (a, b, c))
FORWARD(int, clang_Cursor_isNull, (CXCursor a), (a))
FORWARD(unsigned, clang_equalCursors, (CXCursor a, CXCursor b), (a, b))
FORWARD(unsigned, clang_hashCursor, (CXCursor a), (a))
FORWARD(CXCursor, clang_getCanonicalCursor, (CXCursor a), (a))
FORWARD(CXCursor, clang_getCursorDefinition, (CXCursor a), (a))
FORWARD(CXCursor, clang_getCursorReferenced, (CXCursor a), (a))
FORWARD(CXCursor, clang_getCursorSemanticParent, (CXCursor a), (a))
FORWARD(CXString, clang_getCursorSpelling, (CXCursor a), (a))
FORWARD(CXString, clang_getCursorUSR, (CXCursor a), (a))
FORWARD(CXSourceRange, clang_getCursorExtent, (CXCursor a), (a))
FORWARD(CXSourceLocation, clang_getCursorLocation, (CXCursor a), (a))
FORWARD(CXType, clang_getCursorType, (CXCursor a), (a))
FORWARD(unsigned, clang_isCursorDefinition, (CXCursor a), (a))
FORWARD(unsigned, clang_isExpression, (enum CXCursorKind a), (a))
FORWARD(unsigned, clang_isDeclaration, (enum CXCursorKind a), (a))
FORWARD(int, clang_Cursor_getNumArguments, (CXCursor a), (a))
FORWARD(CXCursor, clang_Cursor_getArgument, (CXCursor a, unsigned b), (a, b))
FORWARD(unsigned, clang_Cursor_isAnonymous, (CXCursor a), (a))
FORWARD(unsigned, clang_Cursor_isInlineNamespace, (CXCursor a), (a))
FORWARD(unsigned, clang_Cursor_isExternalSymbol, (CXCursor a, CXString *b, CXString *c, unsigned *d), (a, b, c, d))
FORWARD(unsigned, clang_Cursor_getObjCPropertyAttributes, (CXCursor a, unsigned b), (a, b))
FORWARD(unsigned, clang_CXXMethod_isStatic, (CXCursor a), (a))
FORWARD(unsigned, clang_Cursor_isMacroFunctionLike, (CXCursor a), (a))
FORWARD(unsigned, clang_isInvalidDeclaration, (CXCursor a), (a))
FORWARD(enum CXLinkageKind, clang_getCursorLinkage, (CXCursor a), (a))
FORWARD(enum CXLanguageKind, clang_getCursorLanguage, (CXCursor a), (a))
FORWARD(unsigned, clang_CXXMethod_isDefaulted, (CXCursor a), (a))

// Types
FORWARD(CXType, clang_getCanonicalType, (CXType a), (a))
FORWARD(CXType, clang_getPointeeType, (CXType a), (a))
FORWARD(CXType, clang_getArrayElementType, (CXType a), (a))
FORWARD(CXCursor, clang_getTypeDeclaration, (CXType a), (a))
FORWARD(unsigned, clang_Type_visitFields, (CXType a, CXFieldVisitor b, CXClientData c), (a, b, c))

// Locations and files
FORWARD(CXFile, clang_getFile, (CXTranslationUnit a, const char *b), (a, b))
FORWARD(const char *, clang_getFileContents, (CXTranslationUnit a, CXFile b, size_t *c), (a, b, c))
FORWARD_VOID(clang_getInclusions, (CXTranslationUnit a, CXInclusionVisitor b, CXClientData c), (a, b, c))
FORWARD(unsigned, clang_isFileMultipleIncludeGuarded, (CXTranslationUnit a, CXFile b), (a, b))
FORWARD(int, clang_getFileUniqueID, (CXFile a, CXFileUniqueID *b), (a, b))
FORWARD(CXString, clang_getFileName, (CXFile a), (a))
FORWARD(int, clang_File_isEqual, (CXFile a, CXFile b), (a, b))
FORWARD(CXSourceLocation, clang_getLocationForOffset, (CXTranslationUnit a, CXFile b, unsigned c), (a, b, c))
FORWARD_VOID(clang_getExpansionLocation, (CXSourceLocation a, CXFile *b, unsigned *c, unsigned *d, unsigned *e), (a, b, c, d, e))
FORWARD_VOID(clang_getFileLocation, (CXSourceLocation a, CXFile *b, unsigned *c, unsigned *d, unsigned *e), (a, b, c, d, e))
FORWARD(int, clang_Location_isFromMainFile, (CXSourceLocation a), (a))
FORWARD(int, clang_Location_isInSystemHeader, (CXSourceLocation a), (a))
FORWARD(unsigned, clang_equalLocations, (CXSourceLocation a, CXSourceLocation b), (a, b))
FORWARD(CXSourceRange, clang_getRange, (CXSourceLocation a, CXSourceLocation b), (a, b))
FORWARD(CXSourceLocation, clang_getRangeStart, (CXSourceRange a), (a))
FORWARD(CXSourceLocation, clang_getRangeEnd, (CXSourceRange a), (a))
FORWARD(unsigned, clang_equalRanges, (CXSourceRange a, CXSourceRange b), (a, b))
FORWARD(CXSourceRangeList *, clang_getSkippedRanges, (CXTranslationUnit a, CXFile b), (a, b))
FORWARD_VOID(clang_disposeSourceRangeList, (CXSourceRangeList *a), (a))

// Tokens
FORWARD_VOID(clang_tokenize, (CXTranslationUnit a, CXSourceRange b, CXToken **c, unsigned *d), (a, b, c, d))
FORWARD_VOID(clang_disposeTokens, (CXTranslationUnit a, CXToken *b, unsigned c), (a, b, c))
FORWARD(CXTokenKind, clang_getTokenKind, (CXToken a), (a))
FORWARD(CXString, clang_getTokenSpelling, (CXTranslationUnit a, CXToken b), (a, b))
FORWARD(CXSourceRange, clang_getTokenExtent, (CXTranslationUnit a, CXToken b), (a, b))

// Compilation databases
FORWARD(CXCompilationDatabase, clang_CompilationDatabase_fromDirectory, (const char *a, CXCompilationDatabase_Error *b), (a, b))
FORWARD_VOID(clang_CompilationDatabase_dispose, (CXCompilationDatabase a), (a))
FORWARD(CXCompileCommands, clang_CompilationDatabase_getAllCompileCommands, (CXCompilationDatabase a), (a))
FORWARD(unsigned, clang_CompileCommands_getSize, (CXCompileCommands a), (a))
FORWARD(CXCompileCommand, clang_CompileCommands_getCommand, (CXCompileCommands a, unsigned b), (a, b))
FORWARD_VOID(clang_CompileCommands_dispose, (CXCompileCommands a), (a))
FORWARD(CXString, clang_CompileCommand_getDirectory, (CXCompileCommand a), (a))
FORWARD(CXString, clang_CompileCommand_getFilename, (CXCompileCommand a), (a))
FORWARD(unsigned, clang_CompileCommand_getNumArgs, (CXCompileCommand a), (a))
FORWARD(CXString, clang_CompileCommand_getArg, (CXCompileCommand a, unsigned b), (a, b))
