import Foundation
import ServiceKit

/// How closely a value must follow a schema in ``schemaMismatches(_:_:fields:)``.
public enum SchemaFields: Sendable {
    /// Every property the schema names is present, at every level: for a value whose
    /// optional fields are all set.
    case all
    /// Only the required properties are present, at every level: for a value whose optional
    /// fields are all nil.
    case required
}

/// Where the JSON `value` encodes to differs from `schema`: an object key the schema does
/// not name or lacks, a string where a number belongs. Empty when the type and its declared
/// schema agree; each entry names the path, `$.items[0].price`, and what is wrong there.
///
/// Services write their OpenAPI schemas beside the CommonsAPI types they answer; this holds
/// the two together, so a field added to one and not the other fails a test.
public func schemaMismatches(_ value: some Encodable, _ schema: OpenAPIDocument.Schema, fields: SchemaFields) throws -> [String] {
    let json = try JSONSerialization.jsonObject(with: try ServiceJSON.encoder.encode(value), options: [.fragmentsAllowed])
    var found: [String] = []
    collectMismatches(json, schema, fields: fields, at: "$", into: &found)
    return found
}

private func collectMismatches(_ json: Any, _ schema: OpenAPIDocument.Schema, fields: SchemaFields, at path: String, into found: inout [String]) {
    switch schema {
    case .named(_, let inner), .requiring(let inner, _), .withoutNUL(let inner):
        collectMismatches(json, inner, fields: fields, at: path, into: &found)
    case .nullable(let inner):
        if !(json is NSNull) { collectMismatches(json, inner, fields: fields, at: path, into: &found) }
    case .object(let properties, let required):
        guard let object = json as? [String: Any] else { return found.append("\(path): not an object") }
        let expected = fields == .all ? Set(properties.keys) : Set(required)
        for key in Set(object.keys).subtracting(expected).sorted() { found.append("\(path).\(key): not expected") }
        for key in expected.subtracting(object.keys).sorted() { found.append("\(path).\(key): absent") }
        for (key, value) in object {
            if let property = properties[key] { collectMismatches(value, property, fields: fields, at: "\(path).\(key)", into: &found) }
        }
    case .map(let values):
        guard let object = json as? [String: Any] else { return found.append("\(path): not an object") }
        for (key, value) in object { collectMismatches(value, values, fields: fields, at: "\(path).\(key)", into: &found) }
    case .array(let items, _, _):
        guard let array = json as? [Any] else { return found.append("\(path): not an array") }
        for (index, element) in array.enumerated() { collectMismatches(element, items, fields: fields, at: "\(path)[\(index)]", into: &found) }
    case .string, .oneOf, .matching:
        if !(json is String) { found.append("\(path): not a string") }
    case .integer, .boundedInteger, .number, .boundedNumber:
        if !(json is NSNumber) { found.append("\(path): not a number") }
    case .boolean:
        // Foundation reads JSON's true and false as numbers too, so only a non-number fails here.
        if !(json is NSNumber) { found.append("\(path): not true or false") }
    case .anyValue:
        break
    }
}
