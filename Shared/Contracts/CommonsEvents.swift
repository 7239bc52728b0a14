import EventLog

/// Every event type Commons publishes, with the upcasters of their older schema versions.
/// Every reader decodes through this one catalog.
public enum CommonsEvents {
    public static let catalog: EventCatalog = {
        var catalog = EventCatalog()
        catalog.register(EventParked.self)
        catalog.register(EventUnparked.self)
        // accounts
        catalog.register(AccountRegistered.self)
        catalog.register(EmailReserved.self)
        catalog.register(EmailReleased.self)
        catalog.register(ProfileChanged.self)
        catalog.register(PasswordChanged.self)
        catalog.register(RoleChanged.self)
        catalog.register(AccountDeleted.self)
        catalog.register(SignInFailed.self)
        catalog.register(SignInSucceeded.self)
        catalog.register(SessionStarted.self)
        catalog.register(SessionOpened.self)
        catalog.register(SessionRefreshed.self)
        catalog.register(SessionRevoked.self)
        catalog.register(PasswordResetRequested.self)
        catalog.register(PasswordResetCompleted.self)
        // listings (written by the listings service)
        catalog.register(ListingPosted.self)
        catalog.register(ListingEdited.self)
        catalog.register(ListingStatusChanged.self)
        catalog.register(ListingDetailsSet.self)
        catalog.register(ListingPickupPlaceSet.self)
        catalog.register(ListingExpirySet.self)
        catalog.register(ListingPromised.self)
        catalog.register(ListingRequested.self)
        catalog.register(ImageStored.self)
        catalog.register(ListingReported.self)
        catalog.register(ListingReportsResolved.self)
        catalog.register(ListingCommentPosted.self)
        catalog.register(ListingCommentDeleted.self)
        catalog.register(ConversationMessageSent.self)
        catalog.register(ConversationRead.self)
        // organizations (written by the donations service)
        catalog.register(OrganizationRegistered.self)
        catalog.register(OrganizationUpdated.self)
        return catalog
    }()
}
