// This whole file is in the composition root by path.
void setup(void) {
    id reporter = [[Container sharedInstance] crashReporter];
}
