/// Passwords of at least 10 characters that are not among the most common ones.
public enum PasswordPolicy {
    public static let minimumLength = 10
    /// bcrypt reads at most 72 bytes; longer passwords would be silently cut.
    public static let maximumBytes = 72

    public static func problems(with password: String) -> [String] {
        var problems: [String] = []
        if password.count < minimumLength { problems.append("must be at least \(minimumLength) characters") }
        if let problem = lengthProblem(password) { problems.append(problem) }
        if isCommon(password) { problems.append("is too common; choose another") }
        return problems
    }

    /// Why a password can be no one's, new or old: longer than ``maximumBytes``. Sign-in and a
    /// password change refuse it before comparing; in bounds, nil.
    public static func lengthProblem(_ password: String) -> String? {
        password.utf8.count > maximumBytes ? "must be at most \(maximumBytes) bytes" : nil
    }

    /// Whether the password, ignoring case, is one that attackers try first.
    public static func isCommon(_ password: String) -> Bool {
        common.contains(password.lowercased())
    }

    // Passwords of 10+ characters from public lists of the most used (and breached) ones.
    static let common: Set<String> = [
        "1234567890", "0123456789", "12345678910", "123456789a", "1234567890a", "1q2w3e4r5t", "1qaz2wsx3edc",
        "qwertyuiop", "qwertyuiop1", "asdfghjkl1", "zxcvbnm123", "password12", "password123", "password1234",
        "password!1", "passw0rd123", "iloveyou12", "iloveyou123", "1111111111", "0000000000", "9876543210",
        "abcdefghij", "abcd123456", "abc1234567", "qwerty1234", "qwerty12345", "qwerty123456", "1234qwerty",
        "123qweasdzxc", "princess123", "football123", "baseball123", "monkey1234", "dragon1234", "sunshine12",
        "superman123", "welcome123", "letmein123", "trustno1234", "starwars123", "whatever12", "michael123",
        "jennifer123", "computer12", "internet12", "changeme123", "administrator", "adminadmin", "admin12345",
        "admin123456", "passwordpassword", "aaaaaaaaaa", "qazwsxedcrfv", "zaq12wsxcde", "1q2w3e4r5t6y",
        "q1w2e3r4t5", "q1w2e3r4t5y6", "a1b2c3d4e5", "11223344556677", "1122334455", "mypassword1", "mypassword123",
        "secret1234", "hello12345", "loveyou123", "football1", "charlie123", "p@ssw0rd123", "p@ssword123",
    ]
}
