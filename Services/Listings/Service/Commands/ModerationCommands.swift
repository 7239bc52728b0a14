import Contracts
import EventLog
import Foundation
import ListingsDomain

/// Reports, their resolution, and comments: the commands beside the listing's own.
extension ListingsCommands {
    /// Records a report; when the listing's open reports weigh the threshold it is hidden
    /// (``ReportTally/reachesThreshold(_:registeredAt:now:establishedAfter:)``: a new account's
    /// report weighs little). Returns the position of the last write.
    func report(_ id: UUID, by reporter: UUID, reason: String, metadata: EventMetadata) async throws -> Checkpoint {
        let state = try await load(id)
        guard state.ownerId != reporter else { throw ListingError.ownListing }
        let reported = ListingReported(
            reportId: .random(), listingId: id, reporterId: reporter, reason: try await sealer.seal(reason, for: reporter),
            reportedAt: clock.now())
        var position = try await handler.record([try EventCatalog.encode(reported, metadata: metadata)], to: ListingStreams.reports(of: id))
            .checkpoint
        let (events, version) = try await ListingStreams.load(ListingStreams.reports(of: id), from: store)
        let tally = ReportTally.replay(events, version: version)
        var registeredAt: [UUID: Date] = [:]
        for reporter in tally.openReporters { registeredAt[reporter] = try await registration(of: reporter) }
        if tally.reachesThreshold(
            settings.reportThreshold, registeredAt: registeredAt, now: clock.now(), establishedAfter: settings.reporterEstablishedAfter)
        {
            let (_, checkpoint) = try await decide(id, metadata: metadata) { state, _ in state.hide() }
            if let checkpoint { position = max(position, checkpoint) }
        }
        return position
    }

    /// When `account` registered, from the first event of its stream; nil when the log has none.
    private func registration(of account: UUID) async throws -> Date? {
        let first = try await store.read(stream: ListingStreams.account(account), from: nil, direction: .forwards, limit: 1).first
        return try first.flatMap { try CommonsEvents.catalog.decode($0) as? AccountRegistered }?.registeredAt
    }

    /// An administrator's decision on the open reports: `dismissed` shows a hidden listing
    /// again, `removed` keeps (or makes) it hidden.
    func resolveReports(_ id: UUID, decision: String, by admin: UUID, metadata: EventMetadata) async throws -> (ListingState, Checkpoint) {
        _ = try await load(id)
        let resolved = ListingReportsResolved(listingId: id, decision: decision, resolvedBy: admin, resolvedAt: clock.now())
        let position = try await handler.record([try EventCatalog.encode(resolved, metadata: metadata)], to: ListingStreams.reports(of: id))
            .checkpoint
        let (state, checkpoint) = try await decide(id, metadata: metadata) { state, _ in
            decision == "dismissed" ? state.unhide() : state.hide()
        }
        return (state, checkpoint.map { max(position, $0) } ?? position)
    }

    /// Posts a comment, its text sealed with the author's key.
    func comment(_ id: UUID, by author: UUID, text: String, metadata: EventMetadata) async throws -> (ListingCommentPosted, Checkpoint) {
        _ = try await load(id)
        let posted = ListingCommentPosted(
            commentId: .random(), listingId: id, authorId: author, text: try await sealer.seal(text, for: author),
            postedAt: clock.now())
        let result = try await handler.record([try EventCatalog.encode(posted, metadata: metadata)], to: ListingStreams.comments(of: id))
        return (posted, result.checkpoint)
    }

    /// Deletes a comment: its author or the listing's owner may.
    func deleteComment(_ commentId: UUID, on id: UUID, by actor: UUID, metadata: EventMetadata) async throws -> Checkpoint {
        let state = try await load(id)
        let stream = ListingStreams.comments(of: id)
        return try await handler.handle(stream, load: { try await ListingStreams.load(stream, from: store) }) { events, _ in
            guard let posted = events.compactMap({ $0 as? ListingCommentPosted }).first(where: { $0.commentId == commentId }),
                !events.contains(where: { ($0 as? ListingCommentDeleted)?.commentId == commentId })
            else { throw ListingError.commentNotFound }
            guard actor == posted.authorId || actor == state.ownerId else { throw ListingError.notOwner }
            let deleted = ListingCommentDeleted(commentId: commentId, listingId: id, deletedBy: actor)
            return .append([try EventCatalog.encode(deleted, metadata: metadata)]) { $0.checkpoint }
        }
    }
}
