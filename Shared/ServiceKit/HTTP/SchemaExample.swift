import Foundation

extension OpenAPIDocument.Schema {
    /// A value that conforms to this schema, for the example of a request body in the
    /// document: every field of an object, each the first of a fixed set, the smallest
    /// sensible number in its range, or text chosen by the field's name and cut to its
    /// bounds. Tests hold every example against its schema.
    public func example(named name: String = "") -> Any {
        switch self {
        case let .string(format, minLength, maxLength):
            let text: String =
                switch format {
                case "uuid": Self.exampleId
                case "date-time": "2026-12-05T10:00:00Z"
                case "email": "ada@example.com"
                default: Self.exampleTexts[name] ?? "An example"
                }
            return Self.fit(text, minLength: minLength ?? 0, maxLength: maxLength ?? Int.max)
        case .oneOf(let values):
            return values.first ?? ""
        case .integer:
            return Self.exampleIntegers[name] ?? 1
        case let .boundedInteger(minimum, maximum):
            return min(max(Self.exampleIntegers[name] ?? 1, minimum), maximum)
        case .number:
            return Self.exampleNumbers[name] ?? 1.5
        case let .boundedNumber(minimum, maximum):
            return min(max(Self.exampleNumbers[name] ?? 1.5, minimum), maximum)
        case .boolean:
            return true
        case let .array(items, maxItems, minItems):
            let count = min(max(1, minItems ?? 0), maxItems ?? 1)
            return Array(repeating: items.example(named: name), count: count)
        case let .object(properties, _):
            return Dictionary(uniqueKeysWithValues: properties.map { ($0.key, $0.value.example(named: $0.key)) })
        case .map(let values):
            return ["key": values.example()]
        case .nullable(let wrapped):
            return wrapped.example(named: name)
        case .anyValue:
            return [String: Any]()
        case .named(_, let schema):
            return schema.example(named: name)
        case .requiring(let schema, _):
            return schema.example(named: name)
        case .withoutNUL(let text):
            return text.example(named: name)
        case let .matching(pattern, length):
            // The patterns the documents use; another gets the shortest text of its length.
            return pattern == "^[A-Z]{3}$" ? "EUR" : String(repeating: "0", count: length.lowerBound)
        }
    }

    private static let exampleId = "6f1c2b0a-5d3e-4c11-9a7e-2b1f0c3d4e5f"

    // Plausible values by field name, so that an example reads as a real request.
    private static let exampleTexts = [
        "title": "Oak dining chair", "description": "Sturdy, one small scratch on a leg", "name": "Weekend groceries",
        "text": "Oat milk", "note": "Ring twice", "displayName": "Ada", "password": "a long example passphrase",
        "newPassword": "another long passphrase", "currentPassword": "a long example passphrase", "message": "Could I pick it up on Friday?",
        "caption": "Nets save lives", "reason": "Not a real item", "streetAddress": "Prinsengracht 263", "category": "Furniture",
        "slug": "against-malaria-foundation", "phone": "+31 20 555 0100", "code": "123456", "cardNumber": "4242 4242 4242 4242",
        "refreshToken": "6f1c2b0a-5d3e-4c11-9a7e-2b1f0c3d4e5f.secret", "commandId": "phone-42", "organization": "against-malaria-foundation",
    ]
    private static let exampleIntegers = ["amountMinor": 1_500, "quantity": 2, "quantityDelta": 1, "delta": 1, "rating": 4, "radius": 5]
    private static let exampleNumbers = ["lat": 52.3731, "lon": 4.8922, "radius": 5.0]

    private static func fit(_ text: String, minLength: Int, maxLength: Int) -> String {
        let long = text.count < minLength ? text + String(repeating: "x", count: minLength - text.count) : text
        return String(long.prefix(maxLength))
    }
}
