import Foundation

/// What the demo accounts say about the demo listings just posted: requests (each opens a
/// conversation, where the owner replies), a promise to a requester, and public comments,
/// so that "my items", messages and comments have something to show.
func seedListingTalk(
    _ api: SeedClient, _ state: inout SeedState, posted: [(id: String, listing: DemoListingFile.Listing)],
    _ report: (String) -> Void
) async throws {
    var counts = (requests: 0, replies: 0, promises: 0, comments: 0)
    for (id, listing) in posted {
        let owner = try await state.accessToken(of: listing.owner, api: api)
        for request in listing.requests ?? [] {
            let requester = try await state.accessToken(of: request.from, api: api)
            let made = try await api.post("/v1/listings/\(id)/requests", ["message": request.message], token: requester)
            guard made.status == 201 else { throw CommandFailure("listings: requesting \(listing.title) answered \(made.status): \(made.detail)") }
            counts.requests += 1
            let opened = try made.decode(OpenedRequest.self)
            if let reply = request.reply {
                let sent = try await api.post(
                    "/v1/conversations/\(opened.conversationId)/messages", ["text": reply], token: owner,
                    headers: made.position.map { ["Commons-Min-Position": $0] } ?? [:])
                guard sent.status == 201 else {
                    throw CommandFailure("listings: replying about \(listing.title) answered \(sent.status): \(sent.detail)")
                }
                counts.replies += 1
            }
            if listing.promisedTo == request.from {
                let promised = try await api.post(
                    "/v1/listings/\(id)/promise", ["requestId": opened.id], token: owner,
                    headers: made.position.map { ["Commons-Min-Position": $0] } ?? [:])
                guard promised.status == 200 else {
                    throw CommandFailure("listings: promising \(listing.title) answered \(promised.status): \(promised.detail)")
                }
                counts.promises += 1
            }
        }
        for comment in listing.comments ?? [] {
            let author = try await state.accessToken(of: comment.from, api: api)
            let answer = try await api.post("/v1/listings/\(id)/comments", ["text": comment.text], token: author)
            guard answer.status == 201 else {
                throw CommandFailure("listings: commenting on \(listing.title) answered \(answer.status): \(answer.detail)")
            }
            counts.comments += 1
        }
    }
    report("listings: \(counts.requests) requests with \(counts.replies) replies, \(counts.promises) promised, \(counts.comments) comments")
}

/// What `POST /v1/listings/{id}/requests` answers, as far as the seed needs it.
private struct OpenedRequest: Decodable {
    var id: String
    var conversationId: String
}
