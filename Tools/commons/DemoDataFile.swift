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
}
