/// Sources the `di-lint fix` tests of both test targets start from.
public enum FixSamples {
    /// A class whose instance method reads a service straight from the container.
    public static let reporter = """
        @interface Reporter
        @end

        @implementation Reporter
        - (void)install {
            id r = [Container sharedInstance].crashReporter;
        }
        @end

        """

    /// The bridge's header for `reporter`, which the rewritten file imports.
    public static let bridgeHeader = "@interface CrashBridge\n@property (nonatomic, readonly) id crashReporter;\n@end\n"

    /// The config the samples are fixed with.
    public static let config = "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n"
}
