import Foundation

/// The events no projection may skip. Parking one would undo an erasure, let a signed-out
/// device in again or keep a role that was taken away, in every replica and every rebuild;
/// a projection that cannot apply one stays halted until its code is fixed.
public enum Unparkable {
    /// Why each such event type cannot be parked.
    public static let reasons: [String: String] = [
        AccountDeleted.eventType: "it erases an account, and skipping it would bring the person's data back",
        SessionRevoked.eventType: "it ends a session, and skipping it would let a signed-out device in again",
        RoleChanged.eventType: "it changes what an account may do, and skipping it would keep a role that was taken away",
    ]
}
