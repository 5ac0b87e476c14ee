/// Parses one Swift file with swift-syntax and builds its `FileModel`.
enum SwiftFrontEnd {
    static func model(displayPath: String, bytes: [UInt8], configuration: Configuration) -> FileModel {
        SwiftFileModel(file: SwiftSourceFile(bytes: bytes), displayPath: displayPath, configuration: configuration)
    }
}
