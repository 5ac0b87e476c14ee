// An ambient (category) property's name that the class declares itself is its own property, not
// the category's: a class that has been given its dependency by injection reads `self.databaseStorage`
// from its own property or getter. Only classes that declare no such member reach the category.
@interface InjectedController : UIViewController
@property (nonatomic, readonly) SDSDatabaseStorage *databaseStorage;
@end

@interface GetterController ()
- (SDSDatabaseStorage *)databaseStorage;
@end

@implementation InjectedController
- (void)load {
    [self.databaseStorage read];
    id storage = [self databaseStorage];
}
@end

@implementation GetterController
- (SDSDatabaseStorage *)databaseStorage {
    return [SDSDatabaseStorage shared];
}
- (void)load {
    [self.databaseStorage read];
}
@end

@implementation AmbientController
- (void)load {
    [self.databaseStorage read];                                                            // expect: container-access@6 ambient.databaseStorage
    id storage = [self databaseStorage];                                                    // expect: container-access@18 ambient.databaseStorage
}
@end
