import Foundation
import ServiceKit

/// Finds a demo data file of the repository's `Data/` folder: the path in `variable` when
/// set, else `Data/<name>` in the working directory or in a directory above the `commons`
/// executable (the repository it was built in, so `commons up` seeds from anywhere).
enum DemoDataFile {
    static func locate(_ name: String, overriddenBy variable: String) -> URL? {
        if let path = EnvironmentVariables().string(variable) { return URL(fileURLWithPath: path) }
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            for _ in 0..<5 {
                candidates.append(directory)
                directory = directory.deletingLastPathComponent()
            }
        }
        return candidates.map { $0.appendingPathComponent("Data/\(name)") }.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The file `name` (see ``locate(_:overriddenBy:)``) decoded as `T`, with where it was
    /// found; nil when there is none. Throws, naming the file, when it does not decode.
    static func load<T: Decodable>(_ type: T.Type, _ name: String, overriddenBy variable: String) throws -> (value: T, file: URL)? {
        guard let file = locate(name, overriddenBy: variable) else { return nil }
        do {
            return (try JSONDecoder().decode(T.self, from: Data(contentsOf: file)), file)
        } catch {
            throw CommandFailure("\(file.path) is not a valid demo data file: \(error)")
        }
    }
}
