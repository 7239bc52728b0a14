import Hummingbird

/// Gives every request a deadline to produce its answer (``ServiceConfiguration/requestDeadline``):
/// past it the handler is cancelled (a wait for a PostgreSQL connection during an outage
/// ends with it) and the client gets 503 with `Retry-After`, never a request that hangs.
/// An event stream's answer is produced at once, and its body is not bound by the deadline.
struct DeadlineMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let limit: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The task group in withDeadline ends before this returns, so `next` does not outlive the call.
        try await withoutActuallyEscaping(next) { next in
            let handler = UncheckedSendable(next)
            return try await withDeadline(limit) { try await handler.value(request, context) }
        }
    }
}

/// A value the compiler cannot prove Sendable, used where its use is confined by structure.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
