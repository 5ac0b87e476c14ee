// An in-tree logging header that sigfx_macro_names.c includes by a path the parse cannot resolve.
#define SIGFX_SAFE_LOG(fmt, ...) ((void)0)
#define SIGFX_TRACE(ctx, level, ...) ((void)(ctx))
