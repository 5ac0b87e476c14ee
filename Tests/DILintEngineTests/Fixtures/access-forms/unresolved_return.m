// An accessor whose return type does not resolve: the message sent to it is still the service
// (it was reported as an empty service name).
@interface Container
+ (MissingType *)shared;
@end

void f(void) {
    id r = [[Container shared] crashReporter];                   // expect: container-access@13 Container.shared.crashReporter
    id s = [Container shared].uploader;                          // expect: container-access@12 Container.shared.uploader
}
