import ArgumentParser
import EventLog
import Foundation

/// Lines to stdout or a file, buffered; call ``flush()`` when a reader should see them now.
final class LineOutput {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle = .standardOutput) {
        self.handle = handle
    }

    func write(_ line: String) throws {
        try write(Data(line.utf8))
    }

    func write(_ line: Data) throws {
        buffer.append(line)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// How `tail` and `stream` print events: one readable line each, or NDJSON in the export format.
struct EventFormat {
    var json: Bool
    private let encoder = ExportedEvent.encoder()

    init(json: Bool) {
        self.json = json
    }

    func write(_ event: RecordedEvent, to output: LineOutput) throws {
        if json {
            try output.write(try encoder.encode(ExportedEvent(event)))
        } else {
            try output.write(Self.line(event))
        }
    }

    /// `position recordedAt stream@version type preview`, e.g.
    /// `42 2025-01-02T03:04:05.678901Z listing-7@3 ListingPosted {"title":"Chair"}`.
    static func line(_ event: RecordedEvent) -> String {
        "\(event.position) \(ExportedEvent.timestamp(event.recordedAt)) \(event.stream)@\(event.version) \(event.type) \(preview(event.data))"
    }

    /// The body on one line, cut to `length` characters.
    static func preview(_ data: Data, length: Int = 80) -> String {
        let text = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " ")
        return text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }
}

/// Reads a checkpoint option (`"tx:pos"` or a bare position).
func parseCheckpoint(_ text: String?, option: String) throws -> Checkpoint? {
    guard let text else { return nil }
    guard let checkpoint = Checkpoint(text) else {
        throw CommandFailure("\(option): '\(text)' is not a checkpoint (expected \"transaction:position\" or a position, e.g. 812:1042 or 1042)")
    }
    return checkpoint
}

/// Reads an event id argument.
func parseEventId(_ text: String) throws -> UUID {
    guard let id = UUID(uuidString: text) else { throw CommandFailure("'\(text)' is not an event id (a UUID)") }
    return id
}

/// Calls `body` with each page of events after `checkpoint` that `filter` matches, up to
/// where the log ends when the read gets there; `body` returns false to stop early.
func forEachPage(
    of store: any EventStore, after checkpoint: Checkpoint, filter: EventFilter = .all, pageSize: Int = 1_000,
    _ body: ([RecordedEvent]) async throws -> Bool
) async throws {
    var checkpoint = checkpoint
    while true {
        let page = try await store.readAll(after: checkpoint, limit: pageSize, filter: filter)
        if !page.events.isEmpty {
            guard try await body(page.events) else { return }
        }
        // A short page means the read reached the end of what is visible.
        if page.events.count < pageSize { return }
        checkpoint = page.checkpoint
    }
}
