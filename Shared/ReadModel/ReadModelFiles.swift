import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of one read model in its directory, and their removal.
///
/// Beside the live file (named by `<name>.current`) a directory may hold files that no
/// longer serve: the file a swap replaced, a rebuild that was interrupted, a damaged file.
/// Each is a copy of rows that erasure (``Projection/forgetErased(in:)``) no longer reaches,
/// so none is kept: a replaced file is removed once the requests that read it are over, and
/// the rest at the next start.
enum ReadModelFiles {
    /// SQLite's companions of a database file, the file itself first.
    static let suffixes = ["", "-wal", "-shm", "-journal"]

    /// Removes the database file at `path` and its companions; one already gone is no error.
    static func remove(_ path: String) {
        for suffix in suffixes { unlink(path + suffix) }
    }

    /// Whether `fileName` in a read-model directory is one of read model `name`'s files: its
    /// first file, a rebuilt one (`<name>.<stamp>.sqlite`), either's companions, the lock of a
    /// rebuild, or a pointer left half written.
    static func belongs(_ fileName: String, to name: String) -> Bool {
        guard fileName.hasPrefix(name + ".") else { return false }
        let rest = fileName.dropFirst(name.count + 1)
        if rest.hasPrefix("current.tmp-") { return true }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        let stamped = parts.count >= 2 && !parts[0].isEmpty && parts[0].allSatisfy(\.isNumber)
        let file = stamped ? parts.dropFirst().joined(separator: ".") : String(rest)
        return file.hasPrefix("sqlite")
    }

    /// Removes every file of read model `name` in `directory` except the live file `live`
    /// and its companions, and except the file of a rebuild still running (``RebuildLock``).
    /// Returns the names it removed.
    @discardableResult
    static func sweep(directory: URL, name: String, keeping live: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var removed: [String] = []
        for fileName in names.sorted() where belongs(fileName, to: name) {
            let database = databaseName(of: fileName)
            if database == live || RebuildLock.isHeld(for: directory.appendingPathComponent(database).path) { continue }
            if unlink(directory.appendingPathComponent(fileName).path) == 0 { removed.append(fileName) }
        }
        return removed
    }

    /// The database file that `fileName` is, or is a companion or the rebuild lock of.
    private static func databaseName(of fileName: String) -> String {
        for suffix in [RebuildLock.suffix] + suffixes.dropFirst() where fileName.hasSuffix(suffix) {
            return String(fileName.dropLast(suffix.count))
        }
        return fileName
    }
}

/// Marks a read-model file as being rebuilt, so that a start of the service in the same
/// directory does not take it for one left behind: an exclusive `flock` on `<file>.rebuilding`,
/// which the kernel releases when the process ends, however it ends.
final class RebuildLock: Sendable {
    static let suffix = ".rebuilding"

    private let descriptor: Int32
    private let path: String

    /// Takes the lock of the file at `databasePath`.
    init(for databasePath: String) throws {
        path = databasePath + Self.suffix
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// Lets go of the lock and removes its file.
    func release() {
        unlink(path)
        close(descriptor)
    }

    /// Whether a running process holds the lock of the file at `databasePath`.
    static func isHeld(for databasePath: String) -> Bool {
        let descriptor = open(databasePath + suffix, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return true }
        flock(descriptor, LOCK_UN)
        return false
    }
}
