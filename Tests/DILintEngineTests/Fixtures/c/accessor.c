/* The C layer's accessor function; declarations are not accesses. */
#include <missing/container.h>

struct container;
struct container *container_shared(void);
extern struct container * container_shared (void);

static double now(void) {
    return container_shared()->date_now();                         // expect: container-access@12 container_shared()->date_now
}

static void run(void) {
    struct container *c = container_shared();                      // expect: container-access@27 container_shared()
    double t = container_shared() -> clock . now;                   // expect: container-access@16 container_shared()->clock
    use(container_shared()->reporter, container_shared());          // expect: container-access@9 container_shared()->reporter; container-access@39 container_shared()
    other.container_shared();
    other->container_shared();
}

#define CONTAINER() container_shared()                              // expect: container-access@21 container_shared()
