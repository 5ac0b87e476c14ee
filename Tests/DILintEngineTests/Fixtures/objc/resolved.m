// Declarations are present, so the AST resolves names: subclasses, macros and typedefs are seen.
@interface NSObject
@end

@interface Container : NSObject
+ (instancetype)sharedInstance;
@property (class, nonatomic, readonly) Container *shared;
@property (nonatomic, readonly) id crashReporter;
- (void)start;
@end

@interface LegacyContainer : Container
@end

typedef Container ContainerAlias;

#define SHARED_CONTAINER [Container sharedInstance]                 // expect: container-access@26 Container.sharedInstance

void resolved(void) {
    id a = [Container sharedInstance];                              // expect: container-access@12 Container.sharedInstance
    id b = [[LegacyContainer sharedInstance] crashReporter];        // expect: container-access@13 Container.sharedInstance.crashReporter
    id c = [ContainerAlias sharedInstance].crashReporter;           // expect: container-access@12 Container.sharedInstance.crashReporter
    id d = SHARED_CONTAINER;                                        // expect: container-access@12 Container.sharedInstance
    id e = Container.shared.crashReporter;                          // expect: container-access@12 Container.shared.crashReporter
    [[Container sharedInstance] start];                             // expect: container-access@6 Container.sharedInstance.start
}

@interface Unrelated : NSObject
+ (instancetype)sharedInstance;
@end

void unrelated(void) {
    id a = [Unrelated sharedInstance];
}
