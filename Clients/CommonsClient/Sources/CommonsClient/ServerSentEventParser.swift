import Foundation

/// One event of a `text/event-stream`, as the WHATWG HTML standard (§9.2.6) dispatches it.
struct ServerSentEvent: Sendable, Equatable {
    /// The `event` field; `message` when the server named none.
    var type: String
    /// The `data` fields, joined with line feeds.
    var data: String
    /// The stream's last event id when this event was dispatched: what `Last-Event-ID`
    /// resumes after. It carries over to later events that have no `id` of their own.
    var lastEventId: String?
}

/// Reads a `text/event-stream` body as it arrives, in chunks cut anywhere (inside a line, a
/// CRLF or a UTF-8 character), and hands out the events it completes. No I/O: the caller
/// feeds it bytes.
///
/// It follows the standard's interpretation: lines end at CRLF, LF or CR; a line starting
/// with `:` is a comment (the services' keep-alives); `field: value` loses one space after
/// the colon; a blank line dispatches; an event without data is not dispatched, though its
/// `id` still counts; a block cut off by the end of the stream is dropped.
struct ServerSentEventParser: Sendable {
    /// The id a reconnection sends as `Last-Event-ID`: the last one of a dispatched block.
    private(set) var lastEventId: String?
    /// The reconnection time the server asked for with `retry`, if it did.
    private(set) var reconnectionTime: Duration?

    private var pending: [UInt8] = []
    private var lastWasCarriageReturn = false
    private var startedFirstLine = false
    private var eventType = ""
    private var dataLines: [String] = []
    private var idBuffer: String?

    /// A parser for a connection that resumes after `lastEventId`, if any.
    init(lastEventId: String? = nil) {
        self.lastEventId = lastEventId
        idBuffer = lastEventId
    }

    /// The events that `chunk` completes, in order.
    mutating func feed(_ chunk: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            switch byte {
            case UInt8(ascii: "\n") where lastWasCarriageReturn:
                // The LF of a CRLF whose CR already ended the line.
                lastWasCarriageReturn = false
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                lastWasCarriageReturn = byte == UInt8(ascii: "\r")
                if let event = endLine() { events.append(event) }
            default:
                lastWasCarriageReturn = false
                pending.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        var line = String(decoding: pending, as: UTF8.self)
        pending.removeAll(keepingCapacity: true)
        // A byte order mark may start the stream, and is not part of its first field.
        if line.hasPrefix("\u{FEFF}"), !startedFirstLine { line.removeFirst() }
        startedFirstLine = true
        if line.isEmpty { return dispatch() }
        if line.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = ""
        }
        switch field {
        case "event": eventType = String(value)
        case "data": dataLines.append(String(value))
        case "id" where !value.contains("\u{0}"): idBuffer = String(value)
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let milliseconds = Int64(value) {
                reconnectionTime = .milliseconds(milliseconds)
            }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        lastEventId = idBuffer
        defer {
            eventType = ""
            dataLines = []
        }
        guard !dataLines.isEmpty else { return nil }
        return ServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType, data: dataLines.joined(separator: "\n"),
            lastEventId: lastEventId)
    }
}
