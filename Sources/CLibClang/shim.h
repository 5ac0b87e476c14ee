// libclang's C API, from Debian's libclang-dev (headers under /usr/lib/llvm-N/include).
// Package.swift locates the prefix; set LIBCLANG_PREFIX to override.
#include <clang-c/Index.h>
#include <clang-c/CXCompilationDatabase.h>
