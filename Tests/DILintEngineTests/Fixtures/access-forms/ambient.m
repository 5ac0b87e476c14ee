// Ambient dependencies in Objective-C: a category property whose getter reads the container.
@interface NSObject (Ambient)
@property (readonly) id databaseStorage;
@end

@implementation NSObject (Ambient)
- (id)databaseStorage {
    return [SSKEnvironment shared].databaseStorageRef;                                      // expect: container-access@12 SSKEnvironment.shared.databaseStorageRef
}
@end

@implementation ThreadViewController
- (void)load {
    [self.databaseStorage read];                                                            // expect: container-access@6 ambient.databaseStorage
    id storage = [self databaseStorage];                                                    // expect: container-access@18 ambient.databaseStorage
    id other = message.databaseStorage;
}
@end
