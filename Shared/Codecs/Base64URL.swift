import ExtrasBase64

/// Base64 in the URL- and filename-safe alphabet (RFC 4648 §5), without padding: the text
/// form of cursors, tokens and key ids. One implementation, through swift-extras-base64.
public enum Base64URL {
    /// The bytes as unpadded base64url text.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64.encodeToString(bytes: bytes, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    /// The bytes `text` spells in unpadded base64url; nil for anything else (another
    /// alphabet, padding, stray characters).
    public static func decode(_ text: String) -> [UInt8]? {
        try? Base64.decode(string: text, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }
}
