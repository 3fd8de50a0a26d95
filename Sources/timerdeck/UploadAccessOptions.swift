import ArgumentParser
import TimerDeck

/// The options for a database that asks who is writing: each replaces the `[uploads]` field of
/// the same name (`--upload-password-file` is `password_file`), as `--upload-url` replaces `url`;
/// one credentials option replaces the file's credentials as a whole, one client-certificate
/// option its certificate and key (``Config/setUploads(_:fromOption:)``).
///
/// None takes a secret itself, which every user could read in the process list: passwords and
/// tokens come from files or an environment variable the options name.
struct UploadAccessOptions: ParsableArguments {
    @Option(
        name: .customLong("upload-username"),
        help: ArgumentHelp(
            "Basic auth's user name, with --upload-password-file (uploads.username).",
            discussion: """
                Each --upload-* option replaces the config's field in parentheses. One of the four credentials \
                options replaces all the config's credentials; --upload-cert-file or --upload-key-file both of its \
                certificate fields. No option takes a password or token itself (the process list shows options): \
                they come from files or an environment variable.
                """,
            valueName: "NAME"))
    var username: String?

    @Option(
        name: .customLong("upload-password-file"),
        help: ArgumentHelp(
            "The file holding basic auth's password, read at each delivery (uploads.password_file).",
            valueName: "FILE"),
        completion: .file())
    var passwordFile: String?

    @Option(
        name: .customLong("upload-bearer-token-file"),
        help: ArgumentHelp(
            "The file holding a bearer token, read at each delivery (uploads.bearer_token_file).", valueName: "FILE"),
        completion: .file())
    var bearerTokenFile: String?

    @Option(
        name: .customLong("upload-bearer-token-env"),
        help: ArgumentHelp(
            "The environment variable holding a bearer token, read at start and removed (uploads.bearer_token_env).",
            valueName: "VAR"))
    var bearerTokenEnvironment: String?

    @Option(
        name: .customLong("upload-header"),
        help: ArgumentHelp(
            "A request header, e.g. X-Scope-OrgID=team-a; repeatable; replaces the config's header of that name (uploads.headers).",
            discussion: "Not for secrets: give credentials as a password or token file.",
            valueName: "NAME=VALUE"))
    var headers: [String] = []

    @Option(
        name: .customLong("upload-ca-file"),
        help: ArgumentHelp(
            "The certificate authorities to trust instead of the system's (uploads.ca_file).", valueName: "FILE"),
        completion: .file())
    var caFile: String?

    @Option(
        name: .customLong("upload-cert-file"),
        help: ArgumentHelp("A client certificate, with --upload-key-file (uploads.cert_file).", valueName: "FILE"),
        completion: .file())
    var certFile: String?

    @Option(
        name: .customLong("upload-key-file"),
        help: ArgumentHelp("The client certificate's private key (uploads.key_file).", valueName: "FILE"),
        completion: .file())
    var keyFile: String?

    @Flag(
        name: .customLong("upload-insecure-skip-verify"),
        help: "Trust any server certificate; never in production (uploads.insecure_skip_verify).")
    var insecureSkipVerify = false

    @Flag(
        name: .customLong("upload-allow-plain-http"),
        help: "Send credentials over http:// to a host off loopback (uploads.allow_plain_http).")
    var allowPlainHTTP = false

    /// Replaces the fields of `settings` that the options give.
    func apply(to settings: inout Config) throws(ConfigError) {
        let texts = [
            ("uploads.username", username), ("uploads.password_file", passwordFile),
            ("uploads.bearer_token_file", bearerTokenFile), ("uploads.bearer_token_env", bearerTokenEnvironment),
            ("uploads.ca_file", caFile), ("uploads.cert_file", certFile), ("uploads.key_file", keyFile),
        ]
        for case (let key, let value?) in texts { try settings.setUploads(key, fromOption: value) }
        if !headers.isEmpty { try settings.setUploadHeaders(fromOptions: headers) }
        if insecureSkipVerify { try settings.setUploads(flag: "uploads.insecure_skip_verify") }
        if allowPlainHTTP { try settings.setUploads(flag: "uploads.allow_plain_http") }
    }
}
