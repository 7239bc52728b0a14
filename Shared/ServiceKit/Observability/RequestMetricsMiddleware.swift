import Foundation
import Hummingbird
import Metrics

/// Records `commons_http_request_duration_seconds` by service, route, method and status.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let service: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let route = context.endpointPath ?? "unmatched"
        Timer(
            label: "commons_http_request_duration_seconds",
            dimensions: [
                ("service", service), ("route", route), ("method", request.method.rawValue), ("status", String(response.status.code)),
            ], preferredDisplayUnit: .seconds
        ).recordInterval(since: start)
        return response
    }
}

extension Timer {
    func recordInterval(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
}
