// [Container sharedInstance] in a line comment is no access.
/* Container.sharedInstance.crashReporter in a block comment
   is none either: [[Container sharedInstance] crashReporter] */

void strings(void) {
    const char *c = "[Container sharedInstance]";
    id s = @"Container.sharedInstance.crashReporter";
    char q = '[';
}

#if 0
void disabled(void) { id a = [Container sharedInstance]; }
#endif

#ifdef NOT_DEFINED_ANYWHERE
void alsoDisabled(void) { id a = [Container sharedInstance]; }
#else
void enabled(void) { id a = [Container sharedInstance]; }         // expect: container-access@29 Container.sharedInstance
#endif

#if 1
void live(void) { id a = container_shared()->crashReporter; }     // expect: container-access@26 container_shared()->crashReporter
#elif 0
void dead(void) { id a = container_shared()->crashReporter; }
#endif
