import Foundation

extension Problem {
    /// The case of `T` that `text` names, or a 400 naming `field` and the values it takes:
    /// for a request type that carries a set of values as a string, as the API's shared
    /// request types do.
    public static func parse<T: RawRepresentable & CaseIterable>(_ text: String, as type: T.Type = T.self, field: String) throws -> T
    where T.RawValue == String {
        if let value = T(rawValue: text) { return value }
        let values = T.allCases.map(\.rawValue).joined(separator: ", ")
        throw Problem.malformed("A field has an invalid value.", errors: [field: ["must be one of \(values)"]])
    }
}
