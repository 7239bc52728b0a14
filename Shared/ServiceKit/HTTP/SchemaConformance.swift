import Foundation

extension OpenAPIDocument.Schema {
    /// Where `value` (as `JSONSerialization` reads it) departs from this schema, each as
    /// `"<path>: <what>"`; empty when it conforms. An object's field that the schema does not
    /// name is a departure too, so a field can exist on only one side of the document.
    public func departures(of value: Any, at path: String = "$") -> [String] {
        switch self {
        case .anyValue:
            return []
        case .named(_, let schema):
            return schema.departures(of: value, at: path)
        case .nullable(let wrapped):
            return value is NSNull ? [] : wrapped.departures(of: value, at: path)
        case let .string(format, minLength, maxLength):
            guard let text = value as? String else { return ["\(path): \(Self.kind(of: value)), not a string"] }
            var found: [String] = []
            if let minLength, text.count < minLength { found.append("\(path): \(text.count) characters, fewer than \(minLength)") }
            if let maxLength, text.count > maxLength { found.append("\(path): \(text.count) characters, more than \(maxLength)") }
            if let format, !Self.conforms(text, to: format) {
                found.append("\(path): \"\(text.prefix(40))\" is not a \(format == "uuid" ? "uuid in lower case" : format)")
            }
            return found
        case .oneOf(let values):
            guard let text = value as? String else { return ["\(path): \(Self.kind(of: value)), not a string"] }
            return values.contains(text) ? [] : ["\(path): \"\(text.prefix(40))\" is not one of \(values.joined(separator: ", "))"]
        case .integer:
            return Self.isInteger(value) ? [] : ["\(path): \(Self.kind(of: value)), not an integer"]
        case let .boundedInteger(minimum, maximum):
            guard Self.isInteger(value), let number = value as? NSNumber else { return ["\(path): \(Self.kind(of: value)), not an integer"] }
            return (minimum...maximum).contains(number.intValue) ? [] : ["\(path): \(number) is outside \(minimum)...\(maximum)"]
        case .number:
            return Self.isNumber(value) ? [] : ["\(path): \(Self.kind(of: value)), not a number"]
        case let .boundedNumber(minimum, maximum):
            guard Self.isNumber(value), let number = value as? NSNumber else { return ["\(path): \(Self.kind(of: value)), not a number"] }
            return (minimum...maximum).contains(number.doubleValue) ? [] : ["\(path): \(number) is outside \(minimum)...\(maximum)"]
        case .boolean:
            return Self.isBoolean(value) ? [] : ["\(path): \(Self.kind(of: value)), not a boolean"]
        case let .array(items, maxItems, minItems):
            guard let array = value as? [Any] else { return ["\(path): \(Self.kind(of: value)), not an array"] }
            var found = array.enumerated().flatMap { items.departures(of: $0.element, at: "\(path)[\($0.offset)]") }
            if let maxItems, array.count > maxItems { found.append("\(path): \(array.count) items, more than \(maxItems)") }
            if let minItems, array.count < minItems { found.append("\(path): \(array.count) items, fewer than \(minItems)") }
            return found
        case let .matching(pattern, length):
            guard let text = value as? String else { return ["\(path): \(Self.kind(of: value)), not a string"] }
            let matches = text.range(of: pattern, options: .regularExpression) != nil && length.contains(text.count)
            return matches ? [] : ["\(path): \"\(text.prefix(40))\" does not match \(pattern)"]
        case let .object(properties, required):
            guard let object = value as? [String: Any] else { return ["\(path): \(Self.kind(of: value)), not an object"] }
            var found = required.filter { object[$0] == nil }.map { "\(path).\($0): missing" }
            for (name, field) in object.sorted(by: { $0.key < $1.key }) {
                if let schema = properties[name] {
                    found += schema.departures(of: field, at: "\(path).\(name)")
                } else {
                    found.append("\(path).\(name): not in the document")
                }
            }
            return found
        case .map(let values):
            guard let object = value as? [String: Any] else { return ["\(path): \(Self.kind(of: value)), not an object"] }
            return object.sorted(by: { $0.key < $1.key }).flatMap { values.departures(of: $0.value, at: "\(path).\($0.key)") }
        case let .requiring(schema, branches):
            let found = schema.departures(of: value, at: path)
            // A branch speaks of some fields only: the others are the whole schema's business.
            let matched = branches.contains { branch in
                branch.departures(of: value, at: path).allSatisfy { $0.hasSuffix(": not in the document") }
            }
            return matched ? found : found + ["\(path): matches none of the \(branches.count) alternatives (anyOf)"]
        case .withoutNUL(let text):
            let found = text.departures(of: value, at: path)
            return (value as? String)?.contains("\u{0}") == true ? found + ["\(path): holds NUL (U+0000)"] : found
        }
    }

    // JSONSerialization reads true and false as NSNumbers of the C type `char`; no number is read so.
    private static func isBoolean(_ value: Any) -> Bool {
        (value as? NSNumber).map { String(cString: $0.objCType) == "c" } ?? false
    }

    private static func isNumber(_ value: Any) -> Bool { value is NSNumber && !isBoolean(value) }

    private static func isInteger(_ value: Any) -> Bool {
        guard isNumber(value), let number = value as? NSNumber else { return false }
        return number.doubleValue.rounded() == number.doubleValue && abs(number.doubleValue) < 9.3e18
    }

    private static func kind(of value: Any) -> String {
        switch value {
        case is NSNull: "null"
        case is String: "a string"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        case _ where isBoolean(value): "a boolean"
        case is NSNumber: "a number"
        default: "\(type(of: value))"
        }
    }

    private static func conforms(_ text: String, to format: String) -> Bool {
        switch format {
        // An id is answered in lower case only (a request may use either).
        case "uuid": return UUID(uuidString: text) != nil && !text.contains(where: \.isUppercase)
        case "date-time":
            return (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) != nil
                || (try? Date.ISO8601FormatStyle().parse(text)) != nil
        default: return true
        }
    }
}
