// [Container sharedInstance] in a line comment is no access.
/* Container.sharedInstance.crashReporter in a block comment
   is none either: [[Container sharedInstance] crashReporter] */

void strings(void) {
    const char *c = "[Container sharedInstance]";
    id s = @"Container.sharedInstance.crashReporter";
    char q = '[';
}

#if 0
void disabled0(void) { id a = [Container sharedInstance]; }
#elif 0
void disabled1(void) { id a = [Container sharedInstance]; }
#endif
#if 0
void disabled(void) { id a = [Container sharedInstance]; }
#endif

// Without headers an unknown macro is no proof the block is dead: both branches are linted.
#ifdef FEATURE_FROM_A_MISSING_HEADER
void feature(void) { id a = [Container sharedInstance]; }         // expect: container-access@29 Container.sharedInstance
#else
void enabled(void) { id a = [Container sharedInstance]; }         // expect: container-access@29 Container.sharedInstance
#endif

#if FEATURE_ENABLED && 0
void unknown(void) { id a = [Container sharedInstance]; }         // expect: container-access@29 Container.sharedInstance
#endif

#if (1) /* constant */
void live(void) { id a = container_shared()->crashReporter; }     // expect: container-access@26 container_shared()->crashReporter
#elif 0
void dead(void) { id a = container_shared()->crashReporter; }
#endif
