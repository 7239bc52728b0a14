import PostgresNIO

extension PostgresBindings {
    /// Bindings of `values`, in the order of the statement's parameters ($1, $2, …).
    static func of(_ values: any PostgresNonThrowingEncodable...) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        return bindings
    }
}
