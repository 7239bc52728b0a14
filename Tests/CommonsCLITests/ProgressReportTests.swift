import Testing

@testable import commons

/// The progress lines long commands write on standard error, as pure text: counts and time in,
/// the line out.
@Suite("progress lines")
struct ProgressReportTests {
    @Test("on a terminal: a bar, the share done, the count, the rate and the time left")
    func terminal() {
        #expect(
            ProgressReport.line(done: 3_000, unit: "events", fraction: 0.3, elapsed: 3, terminal: true)
                == "[######              ]  30%  3000 events  1000 events/s  7 s left")
        #expect(
            ProgressReport.line(done: 50_000, unit: "events", fraction: 1, elapsed: 25, terminal: true)
                == "[####################] 100%  50000 events  2000 events/s  0 s left")
        #expect(
            ProgressReport.line(done: 0, unit: "listings", fraction: 0, elapsed: 0, terminal: true)
                == "[                    ]   0%  0 listings  0 listings/s  ? left", "nothing done yet: no rate, no estimate")
    }

    @Test("not on a terminal: a plain line; without a known whole, the count and the rate alone")
    func plain() {
        #expect(
            ProgressReport.line(done: 12_000, unit: "events", fraction: 0.25, elapsed: 60, terminal: false)
                == "12000 events (25%), 200 events/s, about 3 min 0 s left")
        #expect(ProgressReport.line(done: 900, unit: "events", fraction: nil, elapsed: 2, terminal: false) == "900 events, 450 events/s")
        #expect(ProgressReport.line(done: 900, unit: "events", fraction: nil, elapsed: 2, terminal: true) == "900 events  450 events/s")
        #expect(
            ProgressReport.line(done: 10, unit: "events", fraction: 1.7, elapsed: 1, terminal: false)
                == "10 events (100%), 10 events/s, about 0 s left",
            "a share past the whole (an export through a checkpoint) is the whole")
    }

    @Test("times left read as seconds, minutes or hours; an estimate beyond reason says so")
    func durations() {
        #expect(ProgressReport.duration(0.2) == "0 s")
        #expect(ProgressReport.duration(59) == "59 s")
        #expect(ProgressReport.duration(185) == "3 min 5 s")
        #expect(ProgressReport.duration(7_800) == "2 h 10 min")
        #expect(ProgressReport.duration(1e300) == "over 100 h")
    }
}
