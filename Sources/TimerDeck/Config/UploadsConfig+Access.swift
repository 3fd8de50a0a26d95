import Glibc
import Uploads

extension UploadsConfig {
    /// The credentials, headers and TLS settings of the `[uploads]` section, checked as a whole.
    ///
    /// The token of `uploads.bearer_token_env` is read here and its variable removed from this
    /// process's environment, so that no hook started later inherits it: call this before any
    /// other thread can read the environment.
    /// - Throws: ``UploadsSetupError`` for a user name without a password file (or the reverse),
    ///   two kinds of credentials at once, or a token variable that is not set.
    func access() throws(UploadsSetupError) -> HTTPAccess {
        var access = HTTPAccess()
        access.headers = headers
        access.caFile = caFile
        access.certFile = certFile
        access.keyFile = keyFile
        access.insecureSkipVerify = insecureSkipVerify
        access.allowPlainHTTP = allowPlainHTTP
        let kinds = [
            ("uploads.password_file", passwordFile), ("uploads.bearer_token_file", bearerTokenFile),
            ("uploads.bearer_token_env", bearerTokenEnvironment),
        ].filter { $0.1 != nil }.map(\.0)
        guard kinds.count <= 1 else {
            throw UploadsSetupError(
                message: "\(kinds.joined(separator: " and ")) are set; give one kind of credentials")
        }
        if (username == nil) != (passwordFile == nil) {
            throw UploadsSetupError(
                message: "uploads.username and uploads.password_file go together (basic auth); set both or neither")
        }
        if let username, let passwordFile {
            access.authorization = .basic(username: username, passwordFile: passwordFile)
        } else if let bearerTokenFile {
            access.authorization = .bearerFile(bearerTokenFile)
        } else if let name = bearerTokenEnvironment {
            guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else {
                throw UploadsSetupError(message: "uploads.bearer_token_env names \(name), which is not set")
            }
            unsetenv(name)
            access.authorization = .bearer(HTTPAccess.Secret(value))
        }
        return access
    }

    /// Warnings for secrets that other users can read: the config file when it names a secret
    /// file or variable or sets headers, and each secret file itself. Each says `chmod 600`.
    package func exposedSecretWarnings(configPath: String?) -> [String] {
        var warnings: [String] = []
        let namesSecrets =
            passwordFile != nil || bearerTokenFile != nil || bearerTokenEnvironment != nil || keyFile != nil
            || !headers.isEmpty
        if let configPath, namesSecrets, Self.isReadableByOthers(configPath) {
            warnings.append(
                "warning: \(configPath) names the uploads' credentials and other users can read it; chmod 600 \(configPath)"
            )
        }
        let secretFiles = [
            ("uploads.password_file", passwordFile), ("uploads.bearer_token_file", bearerTokenFile),
            ("uploads.key_file", keyFile),
        ]
        for case (let key, let path?) in secretFiles where Self.isReadableByOthers(path) {
            warnings.append("warning: \(key) \(path) can be read by other users; chmod 600 \(path)")
        }
        return warnings
    }

    /// Whether the file at `path` grants read permission to its group or to everyone.
    private static func isReadableByOthers(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return status.st_mode & (S_IRGRP | S_IROTH) != 0
    }
}
