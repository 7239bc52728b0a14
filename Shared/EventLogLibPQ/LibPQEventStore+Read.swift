import EventLog
import EventLogPostgres
import Foundation

extension LibPQEventStore {
    public func read(stream: String, from version: Int64?, direction: ReadDirection, limit: Int) async throws -> [RecordedEvent] {
        let limit = Int64(min(limit, Int(Int64.max)))
        let (statement, start) =
            switch direction {
            case .forwards: (LibPQStatements.readForwards, version ?? 1)
            case .backwards: (LibPQStatements.readBackwards, version ?? Int64.max)
            }
        return try await pool.execute(statement, [.text(stream), .integer(start), .integer(limit)], pipelinable: false) { try $0.events() }
    }

    public func event(id: UUID) async throws -> RecordedEvent? {
        try await pool.execute(LibPQStatements.eventByID, [.uuid(id)]) { try $0.events().first }
    }

    public func readAll(after checkpoint: Checkpoint, limit: Int, filter: EventFilter) async throws -> EventPage {
        let count = Int64(min(limit, Int(Int64.max)))
        var parameters: [LibPQParameter] = [.integer(checkpoint.transaction), .integer(checkpoint.position)]
        let statement: PreparedSQL
        switch (filter.categories.map(Array.init), filter.types.map(Array.init)) {
        case (nil, nil):
            statement = LibPQStatements.readAll
        case (let categories?, nil):
            statement = LibPQStatements.readAllCategories
            parameters.append(.array(categories))
        case (nil, let types?):
            statement = LibPQStatements.readAllTypes
            parameters.append(.array(types))
        case (let categories?, let types?):
            statement = LibPQStatements.readAllCategoriesAndTypes
            parameters += [.array(categories), .array(types)]
        }
        parameters.append(.integer(count))
        let rows = try await pool.execute(statement, parameters, pipelinable: false) { result in
            // The horizon and the held-back flag are the same on every row: read from the first.
            let columns = 3
            let horizon = try result.integer(0, columns, as: UInt64.self)
            let heldBack = try result.integer(0, columns + 1, as: UInt8.self).map { $0 != 0 }
            let events = try (0..<result.rows).compactMap { try result.event($0) }
            return (horizon, heldBack, events)
        }
        let (horizon, heldBack, events) = rows
        let page: [(horizon: UInt64?, heldBack: Bool?, event: RecordedEvent?)] =
            events.isEmpty
            ? [(horizon, heldBack, nil)] : events.enumerated().map { ($0.offset == 0 ? horizon : nil, $0.offset == 0 ? heldBack : nil, $0.element) }
        return PostgresEventStore.page(of: page, after: checkpoint, limit: limit)
    }

    public func readAllBackwards(before checkpoint: Checkpoint?, limit: Int, filter: EventFilter) async throws -> [RecordedEvent] {
        let parameters: [LibPQParameter] = [
            .integer(checkpoint?.transaction ?? UInt64.max), .integer(checkpoint?.position ?? Int64.max),
            filter.categories.map { .array($0.sorted()) } ?? .null, filter.types.map { .array($0.sorted()) } ?? .null,
            .integer(Int64(min(limit, Int(Int64.max)))),
        ]
        return try await pool.execute(LibPQStatements.readAllBackwards, parameters, pipelinable: false) { try $0.events() }
    }

    public func head() async throws -> Checkpoint {
        try await pool.execute(LibPQStatements.head, []) { result in
            guard result.rows > 0, let transaction = try result.integer(0, 0, as: UInt64.self),
                let position = try result.integer(0, 1, as: Int64.self)
            else { return .start }
            return Checkpoint(transaction: transaction, position: position)
        }
    }

    public func hasReached(_ checkpoint: Checkpoint) async throws -> Bool {
        try await pool.execute(LibPQStatements.reached, [.integer(checkpoint.transaction), .integer(checkpoint.position)]) { result in
            result.rows > 0 ? try result.integer(0, 0, as: UInt8.self) == 1 : false
        }
    }

    public func eventCount(after checkpoint: Checkpoint, limit: Int) async throws -> Int {
        let parameters: [LibPQParameter] = [.integer(checkpoint.transaction), .integer(checkpoint.position), .integer(limit)]
        return try await pool.execute(LibPQStatements.countAfter, parameters) { result in
            Int(result.rows > 0 ? try result.integer(0, 0, as: Int64.self) ?? 0 : 0)
        }
    }
}
