import Foundation
import Testing

@testable import CommonsClient

@Suite("server-sent event parser")
struct ServerSentEventParserTests {
    /// The events of `text` fed in pieces of `size` bytes, and the parser afterwards.
    static func parse(_ text: String, in size: Int = .max, after lastEventId: String? = nil) -> ([ServerSentEvent], ServerSentEventParser) {
        var parser = ServerSentEventParser(lastEventId: lastEventId)
        let bytes = Array(text.utf8)
        var events: [ServerSentEvent] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + min(size, bytes.count))
            events += parser.feed(bytes[start..<end])
            start = end
        }
        return (events, parser)
    }

    static let stream = "retry: 3000\n\n: keep-alive\n\nid: 2\nevent: change\ndata: {\"a\":1}\n\n: keep-alive\n\nid: 3\ndata: {\"b\":\ndata: 2}\n\n"

    @Test("fields make events: the name, data lines joined with \\n, the id; comments are skipped")
    func fields() {
        let (events, parser) = Self.parse(Self.stream)
        #expect(
            events == [
                ServerSentEvent(type: "change", data: "{\"a\":1}", lastEventId: "2"),
                ServerSentEvent(type: "message", data: "{\"b\":\n2}", lastEventId: "3"),
            ])
        #expect(parser.lastEventId == "3")
        #expect(parser.reconnectionTime == .milliseconds(3_000))
    }

    @Test("chunks cut anywhere, even byte by byte, give the same events", arguments: [1, 2, 3, 7, 64])
    func chunks(size: Int) {
        #expect(Self.parse(Self.stream, in: size).0 == Self.parse(Self.stream).0)
    }

    @Test("lines end at LF, CRLF (also cut between CR and LF) or CR alone")
    func lineEnds() {
        let expected = [ServerSentEvent(type: "a", data: "1\n2", lastEventId: nil), ServerSentEvent(type: "b", data: "3", lastEventId: nil)]
        #expect(Self.parse("event: a\r\ndata: 1\r\ndata: 2\r\n\r\nevent: b\r\ndata: 3\r\n\r\n", in: 1).0 == expected)
        #expect(Self.parse("event: a\rdata: 1\rdata: 2\r\revent: b\rdata: 3\r\r").0 == expected)
        #expect(Self.parse("event: a\ndata: 1\ndata: 2\n\nevent: b\ndata: 3\n\n").0 == expected)
    }

    @Test("a UTF-8 character cut between chunks arrives whole")
    func utf8() {
        #expect(Self.parse("data: Müsli 🥣\n\n", in: 1).0 == [ServerSentEvent(type: "message", data: "Müsli 🥣", lastEventId: nil)])
    }

    @Test("one space after the colon is dropped, no more; a field without a colon has an empty value; a leading BOM is ignored")
    func values() {
        let (events, _) = Self.parse("\u{FEFF}data:x\n\ndata:  two\n\ndata\ndata\n\n")
        #expect(events.map(\.data) == ["x", " two", "\n"])
    }

    @Test("an event without data is not dispatched, but its id counts; ids carry over to later events")
    func ids() {
        let (events, parser) = Self.parse("id: 7\nevent: change\n\ndata: a\n\nid: 8\n\n", after: "6")
        #expect(events == [ServerSentEvent(type: "message", data: "a", lastEventId: "7")])
        #expect(parser.lastEventId == "8")
        #expect(Self.parse("data: a\n\n", after: "6").0.first?.lastEventId == "6", "a resumed stream keeps the id it resumed after")
        #expect(Self.parse("id: 1\u{0}2\ndata: a\n\n", after: "6").0.first?.lastEventId == "6", "an id with NUL is ignored")
        #expect(Self.parse("id\ndata: a\n\n", after: "6").0.first?.lastEventId == "", "an empty id resets it")
    }

    @Test("retry takes only digits; unknown fields are ignored")
    func retry() {
        #expect(Self.parse("retry: 1.5\n\n").1.reconnectionTime == nil)
        #expect(Self.parse("retry: 250\nretry: x\nfoo: bar\n\n").1.reconnectionTime == .milliseconds(250))
        #expect(Self.parse("foo: bar\ndata: a\n\n").0.map(\.data) == ["a"])
    }

    @Test("a block cut off by the end of the stream is not dispatched, and its id does not count")
    func unfinished() {
        let (events, parser) = Self.parse("id: 1\ndata: a\n\nid: 2\ndata: b\n")
        #expect(events.map(\.data) == ["a"])
        #expect(parser.lastEventId == "1")
    }
}
