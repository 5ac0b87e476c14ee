/// Parses one Swift file with swift-syntax and builds its `FileModel`: the one Swift entry of
/// lint, report and fix (planning and verifying), so one guard decides which files are read.
enum SwiftFrontEnd {
    /// The file's model, or why it cannot be linted (nesting or chains past what the parser takes).
    static func model(displayPath: String, bytes: [UInt8], configuration: Configuration) -> Result<
        FileModel, ParseFailure
    > {
        swiftModel(displayPath: displayPath, bytes: bytes, configuration: configuration).map { $0 }
    }

    /// The same, as the Swift model itself (fix reads its swift-syntax tree).
    static func swiftModel(displayPath: String, bytes: [UInt8], configuration: Configuration) -> Result<
        SwiftFileModel, ParseFailure
    > {
        let file = SwiftSourceFile(bytes: bytes)
        if let problem = file.problem { return .failure(ParseFailure(reason: problem)) }
        return .success(SwiftFileModel(file: file, displayPath: displayPath, configuration: configuration))
    }
}
