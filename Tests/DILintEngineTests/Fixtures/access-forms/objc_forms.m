// Objective-C forms: class methods with arguments, any member of a type (`Settings.*`), globals,
// Swift helper types used from Objective-C (whole type, or only the listed members).
@interface Environment
+ (int)hasEnabledOption:(int)option;
+ (int)hasEnabledOption:(int)option inScope:(int)scope;
+ (int)version;
@end

@interface Settings
+ (id)store;
+ (id)alloc;
@property (class, readonly) id theme;
@end

@interface Container
- (id)crashReporter;
@end

extern Container *gContainer;

int declared(void) {
    int a = [Environment hasEnabledOption:1];                    // expect: container-access@13 Environment.hasEnabledOption:
    int b = [Environment hasEnabledOption:1 inScope:2];          // expect: container-access@13 Environment.hasEnabledOption:
    int v = [Environment version];
    id s = [Settings store];                                     // expect: container-access@12 Settings.store
    id t = Settings.theme;                                       // expect: container-access@12 Settings.theme
    id n = [Settings alloc];
    id r = [gContainer crashReporter];                           // expect: container-access@13 gContainer.crashReporter
    return a + b + v;
}

void undeclared(void) {
    BOOL on = [Environment hasEnabledOption:Verbose];            // expect: container-access@15 Environment.hasEnabledOption:
    id x = [DependencyContainerSwiftHelper crashReporter];       // expect: container-access@12 DependencyContainerSwiftHelper.crashReporter
    id y = DependencyContainerSwiftHelper.dateProvider;          // expect: container-access@12 DependencyContainerSwiftHelper.dateProvider
    id z = [ScreenHelper screen];                                // expect: container-access@12 ScreenHelper.screen
    id w = [ScreenHelper scale];
    Class h = [DependencyContainerSwiftHelper self];
    gContainer = nil;
    id u = gContainer.uploader;                                  // expect: container-access@12 gContainer.uploader
}

// The accessor's own implementation, delegating to an overload, is not an access.
@implementation Environment
+ (int)hasEnabledOption:(int)option {
    return [Environment hasEnabledOption:option inScope:0];
}
+ (int)version {
    return [Environment hasEnabledOption:2];                     // expect: container-access@12 Environment.hasEnabledOption:
}
@end
