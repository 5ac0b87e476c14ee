/* With the accessor declared, the AST sees calls made through macros too. */
struct services { double (*now)(void); };
struct services *container_shared(void);
#define SERVICES container_shared()                                 // expect: container-access@18 container_shared()
#define NOW() (SERVICES->now())

double tick(void) {
    return SERVICES->now();                                         // expect: container-access@12 container_shared()->now
}

double tock(void) {
    return NOW();                                                   // expect: container-access@12 container_shared()->now
}
