import Foundation

extension UUID {
    /// The 16 bytes in their written order: what stable hashes and cursors are made of, and
    /// an order that agrees with the lowercase text form.
    package var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }
}
