import Codecs
import Foundation

/// The limits on what a list holds.
public enum ShoppingListRules {
    public static let quantities = 1...999
    /// The change one edit may ask for. Wider than any valid change (so the domain can say
    /// what quantity it would make), narrow enough that no arithmetic on it can overflow.
    public static let quantityDeltas = -1_000_000...1_000_000
    public static let nameLength = 1...100
    public static let textLength = 1...200
    public static let noteLength = 0...500
    /// At most this many members besides the owner.
    public static let maxMembers = 50
    /// At most this many items on a list (removed ones do not count): a list is read whole.
    public static let maxItems = 500

    /// A problem with a list name, if any.
    public static func nameProblem(_ name: String) -> String? {
        lengthProblem(name, nameLength)
    }

    /// A problem with an item's free text, if any.
    public static func textProblem(_ text: String) -> String? {
        lengthProblem(text, textLength)
    }

    /// A problem with a note, if any.
    public static func noteProblem(_ note: String) -> String? {
        note.count > noteLength.upperBound ? "must be at most \(noteLength.upperBound) characters" : nil
    }

    /// A problem with a quantity, if any.
    public static func quantityProblem(_ quantity: Int) -> String? {
        quantities.contains(quantity) ? nil : "must be from \(quantities.lowerBound) to \(quantities.upperBound)"
    }

    /// A problem with the size of a quantity delta, if any (whether it fits the item is
    /// decided with the item).
    public static func deltaProblem(_ delta: Int) -> String? {
        quantityDeltas.contains(delta) ? nil : "must be from \(quantityDeltas.lowerBound) to \(quantityDeltas.upperBound)"
    }

    /// The text without surrounding white space, as it is kept.
    public static func trimmed(_ text: String) -> String {
        text.trimmingWhitespaceAndNewlines()
    }

    private static func lengthProblem(_ text: String, _ range: ClosedRange<Int>) -> String? {
        let count = trimmed(text).count
        if count < range.lowerBound { return "must not be empty" }
        if count > range.upperBound { return "must be at most \(range.upperBound) characters" }
        return nil
    }
}
