extension OpenAPIDocument.Schema {
    /// `CommonsAPI.ImageLinks`: where each size of a photo is served (a listing's photos, a
    /// search result's first photo).
    public static let imageLinks = object(
        ["id": .string(format: "uuid"), "small": .string(), "medium": .string(), "original": .string()],
        required: ["id", "small", "medium", "original"]
    ).named("ImageLinks")

    /// `CommonsAPI.PickupTimes`: when a listing can be picked up (a listing, a search result).
    public static let pickupTimes = object(
        [
            "note": .string(),
            "windows": .array(
                .object(["startsAt": .string(format: "date-time"), "endsAt": .string(format: "date-time")], required: ["startsAt", "endsAt"])),
        ],
        required: ["windows"]
    ).named("PickupTimes")
}
