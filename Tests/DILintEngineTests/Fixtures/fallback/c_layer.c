/* The C form: r->bridge ? r->bridge->x : container_shared()->x. */
#include "seam_crash_runtime.h"

double reporter_now(struct reporter *r) {
    return r->bridge ? r->bridge->now(r->bridge->context) : container_shared()->now(container_shared()->context); /* expect: container-fallback@61 container_shared()->now; container-fallback@85 container_shared()->context */
}

void reporter_post(struct reporter *r, const char *name) {
    const struct bridge *services = r->bridge ? r->bridge : container_shared(); /* expect: container-fallback@61 container_shared() */
    services->post(services->context, name);
    if (r->bridge != NULL) {
        r->bridge->post(r->bridge->context, name);
    } else {
        container_shared()->post(container_shared()->context, name); /* expect: container-fallback@9 container_shared()->post; container-fallback@34 container_shared()->context */
    }
}

int reporter_available(struct reporter *r) {
    return r->bridge != NULL || container_shared() != NULL; /* expect: container-fallback@33 container_shared() */
}

int reporter_missing(struct reporter *r) {
    return !r->bridge && container_shared() == NULL; /* expect: container-fallback@26 container_shared() */
}

void reporter_wrong(struct reporter *r) {
    int x = r->other || container_shared(); /* expect: container-access@25 container_shared() */
    int y = r->bridge && container_shared(); /* expect: container-access@26 container_shared() */
    double t = r->other ? r->other->now() : container_shared()->now(); /* expect: container-access@45 container_shared()->now */
}
