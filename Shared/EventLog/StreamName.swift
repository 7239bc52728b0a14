/// A stream's name, `<category>-<id>`: the category is the text before the first `-`.
public struct StreamName: Hashable, Sendable, CustomStringConvertible {
    public let category: String
    public let id: String

    public init(category: String, id: String) {
        self.category = category
        self.id = id
    }

    /// Parses `<category>-<id>`; nil when either part is empty or the category has
    /// anything but lowercase letters, digits and `_`.
    public init?(_ name: String) {
        guard let dash = name.firstIndex(of: "-") else { return nil }
        let category = String(name[..<dash])
        let id = String(name[name.index(after: dash)...])
        guard !category.isEmpty, !id.isEmpty, category.allSatisfy(Self.isCategoryCharacter) else { return nil }
        self.init(category: category, id: id)
    }

    public var description: String { "\(category)-\(id)" }

    /// Whether `text` is a category: not empty, lowercase letters, digits and `_` only.
    public static func isCategory(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.allSatisfy(isCategoryCharacter)
    }

    private static func isCategoryCharacter(_ character: Character) -> Bool {
        character == "_" || (character.isASCII && (character.isLowercase || character.isNumber))
    }
}
