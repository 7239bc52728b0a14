import EventLog

/// Every event type Commons publishes, with the upcasters of their older schema versions.
/// Every reader decodes through this one catalog.
public enum CommonsEvents {
    public static let catalog: EventCatalog = {
        var catalog = EventCatalog()
        catalog.register(EventParked.self)
        catalog.register(EventUnparked.self)
        return catalog
    }()
}
