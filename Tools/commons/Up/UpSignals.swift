import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT and SIGTERM as they arrive, instead of their default of ending the process at once.
/// Keep it alive for as long as they should arrive here.
struct InterruptSignals {
    /// The signal numbers, in order of arrival.
    let received: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (received, arrived) = AsyncStream.makeStream(of: Int32.self)
        self.received = received
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN) // so that the dispatch source, not the default action, sees it
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { arrived.yield(number) }
            source.resume()
            return source
        }
    }

    /// Waits for the next signal.
    func next() async -> Int32? {
        var iterator = received.makeAsyncIterator()
        return await iterator.next()
    }
}
