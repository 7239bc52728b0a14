#if canImport(Security)
    import Foundation
    import Security

    /// Keeps the session's tokens in the Keychain, so a signed-in session outlives the app:
    /// one generic-password item under ``service`` and ``account``, holding the tokens as JSON.
    ///
    /// The item is readable after the device's first unlock since it started, so a launch in
    /// the background (a push, a background refresh) finds the session, and it stays on this
    /// device: it is left out of backups restored to another
    /// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`).
    ///
    /// As ``TokenStore`` asks, nothing throws: a save or clear the Keychain refuses leaves the
    /// session in the client's memory only, and an item that cannot be read or decoded loads as
    /// signed out.
    public struct KeychainTokenStore: TokenStore {
        /// The item's `kSecAttrService`.
        public let service: String
        /// The item's `kSecAttrAccount`.
        public let account: String

        /// - Parameters:
        ///   - service: names the item's owner; by default the app's bundle identifier with
        ///     `.commons` appended.
        ///   - account: tells apart sessions kept side by side (e.g. one per gateway).
        public init(service: String = (Bundle.main.bundleIdentifier ?? "CommonsClient") + ".commons", account: String = "session") {
            self.service = service
            self.account = account
        }

        public func load() async -> Tokens? {
            var query = item
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess, let data = result as? Data else { return nil }
            return try? CommonsJSON.decoder.decode(Tokens.self, from: data)
        }

        public func save(_ tokens: Tokens) async {
            guard let data = try? CommonsJSON.encoder.encode(tokens) else { return }
            let update: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            // Update first: the item is there after the first sign-in, and an add would fail with a duplicate.
            if SecItemUpdate(item as CFDictionary, update as CFDictionary) == errSecItemNotFound {
                _ = SecItemAdd(item.merging(update) { _, new in new } as CFDictionary, nil)
            }
        }

        public func clear() async {
            _ = SecItemDelete(item as CFDictionary)
        }

        /// What names the item, in every query.
        private var item: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
        }
    }
#endif
