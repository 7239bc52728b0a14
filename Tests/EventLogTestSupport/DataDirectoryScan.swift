import Foundation

/// What a service's data directory holds, for the checks that nothing of a deleted person is
/// left in any file of it.
public enum DataDirectoryScan {
    /// Every file under `directory`, by its path below it, with all its bytes.
    public static func files(under directory: URL) -> [(path: String, bytes: Data)] {
        guard let files = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return files.compactMap { file in
            guard let file = file as? String, let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path) else {
                return nil
            }
            return (file, data)
        }
    }

    /// The read-model files under `directory` that are not their read model's live file (the
    /// one its `<name>.current` names), once none is left or a generous deadline has passed:
    /// a file a swap replaced is removed only after the requests reading it have ended.
    public static func replacedReadModels(under directory: URL) async throws -> [String] {
        func replaced() -> [String] {
            let paths = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String]) ?? []
            let live = Set(
                paths.filter { $0.hasSuffix(".current") }.compactMap { pointer -> String? in
                    guard let file = try? String(contentsOf: directory.appendingPathComponent(pointer), encoding: .utf8) else { return nil }
                    let folder = (pointer as NSString).deletingLastPathComponent
                    return (folder as NSString).appendingPathComponent(file.trimmingCharacters(in: .whitespacesAndNewlines))
                })
            // The embedded log is not a read model.
            return paths.filter { $0.hasSuffix(".sqlite") && !$0.hasSuffix("events.sqlite") && !live.contains($0) }.sorted()
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline, !replaced().isEmpty { try await Task.sleep(for: .milliseconds(250)) }
        return replaced()
    }
}
