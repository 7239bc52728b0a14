import Codecs
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// Encoded answers of a read, kept while the rows they were read from stay unchanged.
///
/// Each answer is stored under the read model's *version token*: a value the read model
/// replaces, in the same transaction, with every write to the rows such answers are made
/// of (a trigger's work, so no writer can forget it). A read asks for the token inside its
/// own snapshot and looks the answer up under it, so a hit holds exactly what the query
/// would answer in that snapshot, and an answer is never served after a write it predates.
/// Tokens are random, not counters, so a read-model file made again from the log never
/// meets the answers of the file it replaces.
///
/// An answer that depends on the time as well (a listing expires at its time, with no
/// write) is stored with the span of time in which it stays the same, and found only within it.
///
/// Only one token's answers are kept: storing under another token drops the rest, as does
/// reaching ``capacity`` answers or ``byteBudget`` bytes (the cache starts over rather than
/// tracking which answer is oldest), so its memory stays bounded whatever is asked. An
/// answer longer than ``largestAnswer`` bytes is not kept.
public final class VersionedAnswerCache<Key: Hashable & Sendable>: Sendable {
    private struct Answer {
        var bytes: [UInt8]
        var valid: Range<Date>?
    }

    private struct Contents {
        var version: Int64?
        var answers: [Key: Answer] = [:]
        /// The bytes of every answer kept.
        var bytes = 0
    }

    /// The most answers kept at once.
    public let capacity: Int
    /// The longest answer kept, in bytes.
    public let largestAnswer: Int
    /// The most bytes kept at once, all answers together.
    public let byteBudget: Int
    private let contents = Mutex(Contents())

    public init(capacity: Int, largestAnswer: Int, byteBudget: Int) {
        self.capacity = capacity
        self.largestAnswer = largestAnswer
        self.byteBudget = byteBudget
    }

    /// The answer stored for `key` under `version`, if any; one stored with a span of time
    /// only when `now` lies in it.
    public func answer(for key: Key, version: Int64, at now: Date? = nil) -> [UInt8]? {
        let answer = contents.withLock { $0.version == version ? $0.answers[key] : nil }
        guard let answer else { return nil }
        if let valid = answer.valid {
            guard let now, valid.contains(now) else { return nil }
        }
        return answer.bytes
    }

    /// Keeps `answer`, read in a snapshot whose token is `version`, for `key`; `valid`, when
    /// the answer depends on the time, is the span in which it stays the same.
    public func store(_ answer: [UInt8], for key: Key, version: Int64, valid: Range<Date>? = nil) {
        guard capacity > 0, answer.count <= min(largestAnswer, byteBudget) else { return }
        contents.withLock { contents in
            if let replaced = contents.answers.removeValue(forKey: key) { contents.bytes -= replaced.bytes.count }
            if contents.version != version || contents.answers.count >= capacity || contents.bytes + answer.count > byteBudget {
                contents = Contents(version: version)
            }
            contents.answers[key] = Answer(bytes: answer, valid: valid)
            contents.bytes += answer.count
        }
    }

    /// How many answers are kept now.
    public var count: Int { contents.withLock { $0.answers.count } }

    /// How many bytes are kept now, all answers together.
    public var bytes: Int { contents.withLock { $0.bytes } }
}

extension Request {
    /// Whether the request says `Cache-Control: no-cache`: the answer must be read afresh,
    /// not taken from a ``VersionedAnswerCache`` (RFC 9111, 5.2.1.4). What is read is kept
    /// for the requests after it all the same.
    public var refusesKeptAnswers: Bool {
        headers[values: .cacheControl].contains { value in
            value.split(separator: ",").contains { $0.trimmingWhitespace().lowercased() == "no-cache" }
        }
    }
}
