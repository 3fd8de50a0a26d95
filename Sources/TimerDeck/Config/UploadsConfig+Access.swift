import Glibc
import Uploads

extension UploadsConfig {
    /// The credentials, headers and TLS settings of the `[uploads]` section, checked as a whole;
    /// an error names where `settings`' file sets the field.
    ///
    /// The token of `uploads.bearer_token_env` is taken here (or was by ``withholdCredentials()``)
    /// and its variable removed from this process's environment, so that no hook started later
    /// inherits it: call this before any other thread can read the environment.
    /// - Throws: ``UploadsSetupError`` for a user name without a password file (or the reverse),
    ///   two kinds of credentials at once, a client certificate without its key (or the reverse),
    ///   or a token variable that is not set; a field a command-line option set is named by the option.
    static func access(in settings: Config) throws(UploadsSetupError) -> HTTPAccess {
        let config = settings.uploads
        config.withholdCredentials()
        var access = HTTPAccess()
        access.headers = config.headers
        access.caFile = config.caFile
        access.certFile = config.certFile
        access.keyFile = config.keyFile
        access.insecureSkipVerify = config.insecureSkipVerify
        access.allowPlainHTTP = config.allowPlainHTTP
        let kinds = [
            ("uploads.password_file", config.passwordFile), ("uploads.bearer_token_file", config.bearerTokenFile),
            ("uploads.bearer_token_env", config.bearerTokenEnvironment),
        ].filter { $0.1 != nil }.map(\.0)
        if kinds.count > 1 {
            let others = kinds.dropFirst().map(settings.name).joined(separator: " and ")
            throw UploadsSetupError(
                message: UploadsSetup.fieldProblem(
                    kinds[1], in: settings,
                    "set together with \(settings.name(of: kinds[0])); give one kind of credentials",
                    fix: "; remove \(others)"))
        }
        if let key = config.username == nil
            ? (config.passwordFile == nil ? nil : "uploads.password_file")
            : (config.passwordFile == nil ? "uploads.username" : nil)
        {
            let other = key == "uploads.username" ? "uploads.password_file" : "uploads.username"
            throw UploadsSetupError(
                message: UploadsSetup.fieldProblem(
                    key, in: settings, "basic auth needs \(settings.name(of: other)) too", fix: "; set both or neither")
            )
        }
        if (config.certFile == nil) != (config.keyFile == nil) {
            let (key, other) =
                config.certFile == nil
                ? ("uploads.key_file", "uploads.cert_file") : ("uploads.cert_file", "uploads.key_file")
            throw UploadsSetupError(
                message: UploadsSetup.fieldProblem(
                    key, in: settings, "a client certificate needs \(settings.name(of: other)) too",
                    fix: "; set both or neither"))
        }
        if let username = config.username, let passwordFile = config.passwordFile {
            access.authorization = .basic(username: username, passwordFile: passwordFile)
        } else if let bearerTokenFile = config.bearerTokenFile {
            access.authorization = .bearerFile(bearerTokenFile)
        } else if let name = config.bearerTokenEnvironment {
            guard let value = ChildEnvironment.take(name) else {
                throw UploadsSetupError(
                    message: UploadsSetup.fieldProblem(
                        "uploads.bearer_token_env", in: settings, "the environment variable \(name) is not set",
                        fix: "; export it before starting"))
            }
            access.authorization = .bearer(HTTPAccess.Secret(value))
        }
        return access
    }

    /// Keeps the credentials from every child timerdeck starts, whether or not a timer drives the
    /// uploads: takes the token variable of `uploads.bearer_token_env` (and one an option
    /// replaced) out of the environment (``access(in:)`` still gets its value) and withholds the
    /// password and token files' text (``ChildEnvironment``). Call it before other threads can
    /// read the environment.
    package func withholdCredentials() {
        for name in replacedTokenEnvironments + [bearerTokenEnvironment].compactMap({ $0 }) {
            _ = ChildEnvironment.take(name)
        }
        for case let path? in [passwordFile, bearerTokenFile] { ChildEnvironment.withholdContents(of: path) }
    }

    /// Warnings for secrets that other users can read: the config file when it names a secret
    /// file or variable or sets headers, and each secret file itself. Each says `chmod 600`.
    /// `setByOption` tells the fields a command-line option set, which the config file does not name.
    package func exposedSecretWarnings(configPath: String?, setByOption: (String) -> Bool = { _ in false })
        -> [String]
    {
        var warnings: [String] = []
        let named = [
            ("uploads.password_file", passwordFile != nil), ("uploads.bearer_token_file", bearerTokenFile != nil),
            ("uploads.bearer_token_env", bearerTokenEnvironment != nil), ("uploads.key_file", keyFile != nil),
            ("uploads.headers", !headers.isEmpty),
        ]
        let namesSecrets = named.contains { key, isSet in isSet && !setByOption(key) }
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
