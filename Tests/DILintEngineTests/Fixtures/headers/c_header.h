/* A plain .h is C. */
#ifndef C_HEADER_H
#define C_HEADER_H
struct container;
struct container *container_shared(void);
static inline void *reporter(void) { return container_shared()->reporter; } /* expect: container-access@45 container_shared()->reporter */
#endif
