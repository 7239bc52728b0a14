import ArgumentParser
import Codecs
import Crypto
import EventLog
import Foundation
import ServiceKit

/// `commons events import FILE`: appends an export to this log, keeping its order.
struct EventsImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import NDJSON written by `commons events export` (photos and events), in order and in batches; safe to repeat.")

    @OptionGroup var store: EventStoreOption

    @Argument(help: "The export file, or - for stdin.")
    var file: String

    func run() async throws {
        let input = file == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: file)
        guard let input else { throw CommandFailure("cannot open \(file)") }
        // A file's size measures how far the import is; stdin has none.
        let size = file == "-" ? nil : (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        let progress = ProgressReport("commons events import")
        try await store.withStore { store in
            let result = try await importEvents(
                from: input, into: store, blobs: try ServiceRuntime.blobStore(beside: store), progress: progress, size: size)
            progress.finish(done: result.events.imported + result.events.alreadyPresent)
            print(
                "imported \(result.events.imported) events, \(result.events.alreadyPresent) already present; "
                    + "\(result.blobsImported) blobs, \(result.blobsPresent) already present")
        }
    }
}

/// What an import did: events, and blobs (photos) whose bytes were new or already here.
struct ImportTotals {
    var events = ImportResult()
    var blobsImported = 0
    var blobsPresent = 0
}

/// Reads export lines from `input` and imports them in order: blobs into `blobs` (each
/// checked against its SHA-256), events `batchSize` at a time, reporting the events to
/// `progress`, as a share of `size` bytes when known. A bad line stops the import there, with
/// its line number; what came before it stays imported.
func importEvents(
    from input: FileHandle, into store: any EventStore, blobs: any BlobStore, batchSize: Int = 1_000, progress: ProgressReport? = nil,
    size: Int? = nil
) async throws -> ImportTotals {
    let decoder = JSONDecoder()
    var lines = LineReader(input)
    var totals = ImportTotals()
    var total: ImportResult {
        get { totals.events }
        set { totals.events = newValue }
    }
    var batch: [RecordedEvent] = []
    var lineNumber = 0

    func flush() async throws {
        guard !batch.isEmpty else { return }
        let result = try await store.importEvents(batch)
        total.imported += result.imported
        total.alreadyPresent += result.alreadyPresent
        batch.removeAll(keepingCapacity: true)
        progress?.report(done: total.imported + total.alreadyPresent, fraction: size.map { Double(lines.bytesRead) / Double(max($0, 1)) })
    }

    while let line = try lines.next() {
        lineNumber += 1
        guard line.contains(where: { !isJSONSpace($0) }) else { continue }
        do {
            if ExportedBlob.isBlobLine(line) {
                let blob = try decoder.decode(ExportedBlob.self, from: line).stored()
                guard SHA256.hash(data: blob.bytes).lowercaseHex == blob.address else {
                    throw BlobAddressMismatch(address: blob.address)
                }
                if try await blobs.restore(blob) { totals.blobsImported += 1 } else { totals.blobsPresent += 1 }
                continue
            }
            batch.append(try decoder.decode(ExportedEvent.self, from: line).recordedEvent())
        } catch {
            try await flush()
            throw CommandFailure(
                "line \(lineNumber): \(describe(error)) (imported \(total.imported) events and found \(total.alreadyPresent) already present before it)"
            )
        }
        if batch.count == batchSize { try await flush() }
    }
    try await flush()
    return totals
}

/// A JSON decoding error in a few words, e.g. `missing "stream"`.
private func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(CommandFailure(error))" }
    func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
    switch error {
    case let .keyNotFound(key, context):
        return "not an exported event: missing \"\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))\""
    case let .typeMismatch(type, context), let .valueNotFound(type, context):
        return "not an exported event: \"\(path(context))\" is not a \(type)"
    case let .dataCorrupted(context):
        let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
        let at = context.codingPath.isEmpty ? "" : "\"\(path(context))\": "
        return "not an exported event: \(at)\(underlying ?? context.debugDescription)"
    @unknown default:
        return "not an exported event: \(CommandFailure(error))"
    }
}

private func isJSONSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
}

/// Reads a file line by line without holding it all in memory.
struct LineReader {
    private let handle: FileHandle
    private var buffer = Data()
    private var start = 0
    private var atEnd = false
    /// How many bytes have been read from the file so far.
    private(set) var bytesRead = 0

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next line without its line break; nil at the end.
    mutating func next() throws -> Data? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                return buffer[start..<newline]
            }
            if atEnd {
                guard start < buffer.endIndex else { return nil }
                defer { start = buffer.endIndex }
                return buffer[start...]
            }
            buffer = Data(buffer[start...]) // keep only the unfinished line
            start = buffer.startIndex
            guard let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty else {
                atEnd = true
                continue
            }
            bytesRead += chunk.count
            buffer.append(chunk)
        }
    }
}
