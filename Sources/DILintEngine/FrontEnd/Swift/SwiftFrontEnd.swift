/// Parses one Swift file with swift-syntax and builds its `FileModel`.
enum SwiftFrontEnd {
    /// The file's model, or why it cannot be linted (nesting or chains past what the parser takes).
    static func model(displayPath: String, bytes: [UInt8], configuration: Configuration) -> Result<
        FileModel, ParseFailure
    > {
        let file = SwiftSourceFile(bytes: bytes)
        if let problem = file.problem { return .failure(ParseFailure(reason: problem)) }
        return .success(SwiftFileModel(file: file, displayPath: displayPath, configuration: configuration))
    }
}
