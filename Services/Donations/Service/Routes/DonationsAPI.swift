import Codecs
import Contracts
import DonationsDomain
import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import ServiceKit

/// The HTTP face of the donations commands and read model. Routes are grouped by concern in
/// the extensions beside this file.
struct DonationsAPI: Sendable {
    let commands: DonationsCommands
    let runtime: ServiceRuntime

    var organizations: OrganizationQueries { OrganizationQueries(pool: runtime.readModel.pool) }
    var donations: DonationQueries { DonationQueries(pool: runtime.readModel.pool) }
    /// Each person's history pages, kept while their donations and the organisations they
    /// name are unchanged (see ``DonationQueries/historyVersion``); only the person asking
    /// ever gets their own. A page opens its messages with the donor's key: erasing an
    /// account deletes its donations, which replaces the token, so no kept page outlives it.
    let historyPages = VersionedAnswerCache<HistoryPageKey>(capacity: 256, largestAnswer: 64 * 1024, byteBudget: 4 << 20)

    /// What a history page is kept under: whose, how long, from where.
    struct HistoryPageKey: Hashable, Sendable {
        var account: UUID
        var limit: Int
        var cursor: String?
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        addOrganizationRoutes(to: router)
        addWalletRoutes(to: router)
        addDonationRoutes(to: router)
        addRecurringRoutes(to: router)
        addSharingRoutes(to: router)
    }

    /// The request's `Idempotency-Key`, which moving money and creating things require.
    func idempotencyKey(_ request: Request) throws -> String {
        guard let key = request.headers[.idempotencyKey], !key.isEmpty else {
            throw Problem.malformed(
                "Send an Idempotency-Key header, so that a retry cannot do this twice.",
                errors: ["Idempotency-Key": ["is required"]])
        }
        return key
    }

    /// Opens a text sealed with its owner's key; nil when the owner's key is gone.
    func open(_ sealed: String?) async throws -> String? {
        try await commands.sealer.open(json: sealed, as: String.self)
    }
}

extension DonationsError: ProblemConvertible {
    /// The problem document for this error; domain errors know nothing of HTTP.
    public var problem: Problem {
        switch self {
        case .invalid(let errors):
            .validation(errors)
        case .organizationNotFound:
            .notFound("There is no such organisation.")
        case .slugTaken:
            .conflict("Another organisation has this slug.", type: "slug-taken")
        case .organizationNotVerified:
            Problem(
                .unprocessableContent, type: "organization-not-verified", title: "Invalid request",
                detail: "This organisation is not verified, so it takes no donations.", errors: ["organization": ["is not verified"]])
        case let .belowMinimum(minimum, currency):
            Problem(
                .unprocessableContent, type: "below-minimum", title: "Invalid request",
                detail: "This organisation takes donations of at least \(minimum) minor units of \(currency).",
                errors: ["amountMinor": ["must be at least \(minimum)"]], extensions: ["minimumDonationMinor": String(minimum), "currency": currency])
        case .wrongCurrency(let expected):
            Problem(
                .unprocessableContent, type: "wrong-currency", title: "Invalid request",
                detail: "This organisation takes donations in \(expected).", errors: ["currency": ["must be \(expected)"]])
        case let .insufficientFunds(balance, currency):
            .conflict(
                "Your wallet holds \(balance) minor units of \(currency), less than this donation; top it up first.",
                type: "insufficient-funds", extensions: ["balanceMinor": String(balance), "currency": currency])
        case .cardDeclined(let reason):
            Problem(
                HTTPResponse.Status(code: 402, reasonPhrase: "Payment Required"), type: "card-declined",
                detail: "The card was not charged: \(reason).")
        case .paymentsNotConfigured:
            Problem(
                .serviceUnavailable, type: "payments-not-configured",
                detail: "This deployment takes no card payments: its operator has configured no card processor (COMMONS_PAYMENTS).")
        case .donationNotFound:
            .notFound("You have no such donation.")
        case .recurringNotFound:
            .notFound("You have no such monthly donation.")
        case .recurringCancelled:
            .conflict("This monthly donation is cancelled.", type: "recurring-cancelled")
        case .anonymousDonation:
            Problem(
                .unprocessableContent, type: "anonymous-donation", title: "Invalid request",
                detail: "Only public donations can be shared.", errors: ["donation": ["is anonymous"]])
        }
    }
}

/// Reads query parameters, collecting every problem so that one 400 lists them all.
struct QueryReader {
    private let request: Request
    private(set) var problems = FieldProblems()

    init(_ request: Request) {
        self.request = request
    }

    mutating func report(_ problem: String, for field: String) {
        problems.add(problem, to: field)
    }

    func text(_ name: String) -> String? {
        guard let value = request.query(name)?.trimmingWhitespace(), !value.isEmpty else { return nil }
        return value
    }

    /// The longest text a filter (`category`, `tag`) may be, in characters.
    static let maximumFilterLength = 100

    /// A filter's text, trimmed, of at most ``maximumFilterLength`` characters as sent.
    mutating func filter(_ name: String) -> String? {
        guard (request.query(name)?.count ?? 0) <= Self.maximumFilterLength else {
            problems.add("must have at most \(Self.maximumFilterLength) characters", to: name)
            return nil
        }
        return text(name)
    }

    /// `limit`, 1…100, default 20 when absent (`limit=` with nothing is not a number).
    mutating func limit() -> Int {
        guard let text = request.query("limit")?.trimmingWhitespace() else { return 20 }
        guard let value = Int(text), (1...100).contains(value) else {
            problems.add("must be a whole number from 1 to 100", to: "limit")
            return 20
        }
        return value
    }

    /// `cursor`, if it was made for `list` (which list, with its filters).
    mutating func cursor(list: String) -> (sortKey: String, id: UUID)? {
        guard let text = text("cursor") else { return nil }
        do {
            return try ListCursor.decode(text, list: list)
        } catch .otherQuery {
            problems.add("belongs to another list or other filters; ask for the first page again", to: "cursor")
        } catch {
            problems.add("is not a cursor from this list", to: "cursor")
        }
        return nil
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(_ name: String, as type: T.Type) -> T? where T.RawValue == String {
        guard let text = text(name) else { return nil }
        guard let value = T(rawValue: text.lowercased()) else {
            problems.add("must be one of \(T.allCases.map(\.rawValue).joined(separator: ", "))", to: name)
            return nil
        }
        return value
    }

    mutating func bool(_ name: String) -> Bool? {
        guard let text = text(name) else { return nil }
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default:
            problems.add("must be true or false", to: name)
            return nil
        }
    }

    mutating func integer(_ name: String, in range: ClosedRange<Int>) -> Int? {
        guard let text = text(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            problems.add("must be a whole number from \(range.lowerBound) to \(range.upperBound)", to: name)
            return nil
        }
        return value
    }

    /// A 400 listing every bad parameter, if any.
    func check() throws {
        guard problems.isEmpty else { throw Problem.malformed("The query has invalid fields.", errors: problems.byField) }
    }
}
