import CommonsAPI

// Value shapes that events carry exactly as the API does, declared once in the SDK's
// `CommonsAPI` and named here as well, so that code reading events needs no second import.
// Events never change once shipped, and so neither may these: a new field must decode when
// absent, and none is renamed or removed (`StoredShapesTests` holds their stored form).

/// A point on Earth in degrees.
public typealias Coordinate = CommonsAPI.Coordinate
/// When a listing can be picked up: free text, structured windows, or both.
public typealias PickupTimes = CommonsAPI.PickupTimes
/// One period in which a listing can be picked up.
public typealias PickupWindow = CommonsAPI.PickupWindow
/// A rating of an organisation by an outside evaluator, e.g. 4 of 4 stars from Charity Navigator.
public typealias OrganizationRating = CommonsAPI.OrganizationRating
/// When a donation centre is open on one day of the week.
public typealias OpeningHours = CommonsAPI.OpeningHours
