import ReadModel

extension ProjectionParking.Refusal: ProblemConvertible {
    public var problem: Problem {
        switch self {
        case .noSuchEvent(let id):
            Problem.notFound("No event \(id.lowercasedText) in the log.")
        case .unparkable(let type, let reason):
            Problem.conflict(
                "\(type) events cannot be parked: \(reason). Fix the projection so that it applies the event.", type: "unparkable-event",
                extensions: ["eventType": type])
        }
    }
}
