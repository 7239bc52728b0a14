import EventLog
import Tracing

/// How a trace crosses the log: the span that appends an event writes its W3C `traceparent`
/// into the event's metadata, and each projection that applies the event continues that
/// trace. Off (no tracer bootstrapped), nothing is written and no span is made.
public enum EventTrace {
    /// Whether a tracer other than the no-op one is bootstrapped in this process.
    public static var isOn: Bool { !(InstrumentationSystem.tracer is NoOpTracer) }

    /// The `traceparent` of the current span, if there is one and tracing is on.
    public static func currentTraceparent() -> String? {
        guard let context = ServiceContext.current else { return nil }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryInjector())
        return carrier["traceparent"]
    }

    /// The context an event's `traceparent` names, for a span that continues its trace;
    /// nil for an event appended without tracing.
    public static func context(of metadata: EventMetadata) -> ServiceContext? {
        context(traceparent: metadata.traceparent)
    }

    /// The context a W3C `traceparent` names (from a header, say); nil for nil.
    public static func context(traceparent: String?) -> ServiceContext? {
        guard let traceparent else { return nil }
        var context = ServiceContext.topLevel
        InstrumentationSystem.instrument.extract(["traceparent": traceparent], into: &context, using: DictionaryExtractor())
        return context
    }

    /// `events`, each without a `traceparent` given the current span's.
    public static func stamped(_ events: [NewEvent]) -> [NewEvent] {
        guard let traceparent = currentTraceparent() else { return events }
        return events.map { event in
            var event = event
            if event.metadata.traceparent == nil { event.metadata.traceparent = traceparent }
            return event
        }
    }
}

private struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key] = value
    }
}

private struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[key]
    }
}
