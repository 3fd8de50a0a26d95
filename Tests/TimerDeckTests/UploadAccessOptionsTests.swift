import Foundation
import Glibc
import TestSupport
import Testing
import Uploads

@testable import TimerDeck
@testable import timerdeck

/// The `--upload-*` options of a database that asks who is writing: each replaces its `[uploads]`
/// field, the credentials and the client certificate as a whole, and errors name the option.
@Suite(.serialized) struct UploadAccessOptionsTests {
    /// The sink's access from `arguments` (with `config`'s text as the config file, if given).
    static func access(_ arguments: [String], config: String? = nil) throws -> HTTPAccess {
        let scratch = try ScratchDirectory()
        let file = try config.map { try scratch.write($0, to: "timerdeck.toml") }
        let command = try TimerDeckCommand.parse((file.map { ["--config", $0] } ?? []) + arguments)
        return try UploadsConfig.access(in: try command.settings())
    }

    /// What timerdeck says when `arguments` (and `config`) cannot give the sink its access.
    static func problem(_ arguments: [String], config: String? = nil) -> String? {
        do {
            _ = try access(arguments, config: config)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("Each option sets its field as the config file would")
    func optionsSetTheFields() throws {
        let options = try Self.access([
            "--upload-username", "123456", "--upload-password-file", "/etc/timerdeck/password", "--upload-header",
            "X-Scope-OrgID=team-a", "--upload-ca-file", "/etc/timerdeck/ca.pem", "--upload-cert-file",
            "/etc/timerdeck/client.pem", "--upload-key-file", "/etc/timerdeck/client-key.pem",
            "--upload-insecure-skip-verify", "--upload-allow-plain-http",
        ])
        let file = try UploadsConfig.access(
            in: try Config.parse(
                """
                [uploads]
                username = "123456"
                password_file = "/etc/timerdeck/password"
                headers = "X-Scope-OrgID=team-a"
                ca_file = "/etc/timerdeck/ca.pem"
                cert_file = "/etc/timerdeck/client.pem"
                key_file = "/etc/timerdeck/client-key.pem"
                insecure_skip_verify = true
                allow_plain_http = true
                """))
        #expect(options == file)
        #expect(try Self.access(["--upload-bearer-token-file", "/t"]).authorization == .bearerFile("/t"))
        #expect(try Self.access([]) == HTTPAccess())
    }

    @Test(
        "A credentials option replaces all the config's credentials, a header the config's header of its name, a file its field"
    )
    func optionsReplaceTheConfig() throws {
        let config = """
            [uploads]
            bearer_token_file = "/etc/timerdeck/token"
            headers = "X-Scope-OrgID=team-a,X-Source=lab"
            ca_file = "/etc/timerdeck/ca.pem"
            cert_file = "/etc/timerdeck/client.pem"
            key_file = "/etc/timerdeck/client-key.pem"
            """
        let access = try Self.access(
            [
                "--upload-username", "u", "--upload-password-file", "/p", "--upload-header", "x-scope-orgid = team-b",
                "--upload-ca-file", "/other-ca.pem",
            ], config: config)
        #expect(access.authorization == .basic(username: "u", passwordFile: "/p"))
        #expect(access.headers == ["x-scope-orgid": "team-b", "X-Source": "lab"])
        #expect(access.caFile == "/other-ca.pem")
        #expect(access.certFile == "/etc/timerdeck/client.pem" && access.keyFile == "/etc/timerdeck/client-key.pem")
        let both = try Self.access(["--upload-cert-file", "/c.pem", "--upload-key-file", "/k.pem"], config: config)
        #expect(both.certFile == "/c.pem" && both.keyFile == "/k.pem")
        #expect(both.authorization == .bearerFile("/etc/timerdeck/token"))
        #expect(try Self.access(["--upload-bearer-token-file", ""], config: config).authorization == .none)
    }

    @Test(
        "Options that cannot go together, or a value the option does not take, are refused naming the option and the way out",
        arguments: [
            (
                ["--upload-password-file", "/p"],
                "option --upload-password-file: basic auth needs --upload-username too "
                    + "(accepted: \"\" or a path; set both or neither)"
            ),
            (
                ["--upload-bearer-token-file", "/t", "--upload-bearer-token-env", "T"],
                "option --upload-bearer-token-env: set together with --upload-bearer-token-file; give one kind of "
                    + "credentials (accepted: \"\" or an environment variable's name; remove --upload-bearer-token-env)"
            ),
            (
                ["--upload-cert-file", "/c.pem"],
                "option --upload-cert-file: a client certificate needs --upload-key-file too "
                    + "(accepted: \"\" or a path; set both or neither)"
            ),
            (
                ["--upload-header", "X-Scope-OrgID"],
                "option --upload-header: \"X-Scope-OrgID\" is invalid (accepted: NAME=VALUE, e.g. X-Scope-OrgID=team-a)"
            ),
            (
                ["--upload-header", "A=1", "--upload-header", "a=2"],
                "option --upload-header: the header a is given twice; give each header once"
            ),
            (
                ["--upload-bearer-token-env", "TIMERDECK_OPTION_TEST_UNSET"],
                "option --upload-bearer-token-env: the environment variable TIMERDECK_OPTION_TEST_UNSET is not set "
                    + "(accepted: \"\" or an environment variable's name; export it before starting)"
            ),
        ])
    func refusedOptions(arguments: [String], message: String) {
        #expect(Self.problem(arguments) == message)
    }

    /// What timerdeck says at start when the sink for `url` cannot be made from `arguments` and
    /// `config`: the scratch directory, which holds a PEM-less `not.pem`, a `cert.pem` and the
    /// config file `timerdeck.toml`, reads as `DIR`.
    static func startProblem(_ arguments: [String], url: String? = nil, config: String? = nil) throws -> String? {
        let scratch = try ScratchDirectory()
        _ = try scratch.write("not a certificate\n", to: "not.pem")
        _ = try scratch.write("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n", to: "cert.pem")
        let directory = scratch.url.path
        let file = try config.map { try scratch.write($0.replacing("DIR", with: directory), to: "timerdeck.toml") }
        do {
            let command = try TimerDeckCommand.parse(
                (file.map { ["--config", $0] } ?? []) + arguments.map { $0.replacing("DIR", with: directory) })
            _ = try UploadsSetup(
                config: try command.settings(), outboxPath: scratch.path("outbox.sqlite").path, uploadURL: url,
                headless: true)
            return nil
        } catch {
            return "\(error)".replacing(directory, with: "DIR")
        }
    }

    @Test(
        "Each upload option's start-up problem names that option and what it takes, never another option",
        arguments: [
            (
                ["--upload-ca-file", "DIR/missing.pem"], "https://db.example/w",
                "option --upload-ca-file: the CA file DIR/missing.pem cannot be read: No such file or directory "
                    + "(accepted: \"\" or a path)"
            ),
            (
                ["--upload-ca-file", "DIR/not.pem"], "https://db.example/w",
                "option --upload-ca-file: the CA file DIR/not.pem holds no PEM certificate "
                    + "(a \"-----BEGIN CERTIFICATE-----\" block) (accepted: \"\" or a path)"
            ),
            (
                ["--upload-cert-file", "DIR/cert.pem"], "https://db.example/w",
                "option --upload-cert-file: a client certificate needs --upload-key-file too "
                    + "(accepted: \"\" or a path; set both or neither)"
            ),
            (
                ["--upload-cert-file", "DIR/not.pem", "--upload-key-file", "DIR/not.pem"], "https://db.example/w",
                "option --upload-cert-file: the client certificate file DIR/not.pem holds no PEM certificate "
                    + "(a \"-----BEGIN CERTIFICATE-----\" block) (accepted: \"\" or a path)"
            ),
            (
                ["--upload-cert-file", "DIR/cert.pem", "--upload-key-file", "DIR/not.pem"], "https://db.example/w",
                "option --upload-key-file: the client key file DIR/not.pem holds no PEM private key "
                    + "(a \"-----BEGIN PRIVATE KEY-----\" block) (accepted: \"\" or a path)"
            ),
            (
                ["--upload-header", "Authorization=Bearer xyz"], "https://db.example/w",
                "option --upload-header: the header \"Authorization\" is set by the uploads themselves; give "
                    + "credentials as a password or token file (accepted: NAME=VALUE, e.g. X-Scope-OrgID=team-a)"
            ),
            (
                ["--upload-ca-file", "DIR/cert.pem"], "http://db.example/w",
                "option --upload-ca-file: TLS settings need an https:// upload URL (accepted: \"\" or a path)"
            ),
            (
                ["--upload-insecure-skip-verify"], "http://db.example/w",
                "option --upload-insecure-skip-verify: TLS settings need an https:// upload URL "
                    + "(accepted: the flag alone, no value)"
            ),
            (
                ["--upload-confirm-url", "ftp://store.example"], "prometheus+http://relay.example/api/v1/write",
                "option --upload-confirm-url: the store URL \"ftp://store.example\" is not an http:// or https:// URL "
                    + "with a host (accepted: \"\" or the store's http(s) URL, e.g. http://store:9090)"
            ),
            (
                ["--upload-confirm-url", "http://store.example:9090"], "http://relay.example/samples",
                "option --upload-confirm-url: batches are read back from the store by PromQL, so the upload URL must "
                    + "be a Prometheus remote-write URL (prometheus+http(s)://…) "
                    + "(accepted: \"\" or the store's http(s) URL, e.g. http://store:9090)"
            ),
            (
                ["--upload-fallback-url", "ftp://store.example"], "prometheus+http://relay.example/api/v1/write",
                "option --upload-fallback-url: the fallback URL \"ftp://store.example\" must start with http:// or "
                    + "https:// (accepted: \"\" or an http(s) or prometheus+http(s) URL)"
            ),
            (
                ["--upload-fallback-url", "prometheus+http://store.example/api/v1/write"],
                "http://relay.example/samples",
                "option --upload-fallback-url: the fallback URL is for remote write, the upload URL for JSON; give both "
                    + "in one form (accepted: \"\" or an http(s) or prometheus+http(s) URL)"
            ),
            (
                ["--upload-ca-file", "DIR/cert.pem"], "ftp://db.example/w",
                "option --upload-url: the upload URL \"ftp://db.example/w\" must start with http:// or https:// "
                    + "(accepted: an http(s) or prometheus+http(s) URL)"
            ),
        ])
    func optionProblemsNameTheOption(arguments: [String], url: String, message: String) throws {
        #expect(try Self.startProblem(arguments, url: url, config: Self.uploadTimers) == message)
    }

    @Test(
        "A config field's start-up problem names the field and its line, also beside an --upload-url",
        arguments: [
            (
                "ca_file = \"DIR/missing.pem\"",
                "DIR/timerdeck.toml:3: field 'uploads.ca_file': the CA file DIR/missing.pem cannot be read: "
                    + "No such file or directory (accepted: \"\" or a path)"
            ),
            (
                "ca_file = \"DIR/not.pem\"",
                "DIR/timerdeck.toml:3: field 'uploads.ca_file': the CA file DIR/not.pem holds no PEM certificate "
                    + "(a \"-----BEGIN CERTIFICATE-----\" block) (accepted: \"\" or a path)"
            ),
            (
                "cert_file = \"DIR/cert.pem\"",
                "DIR/timerdeck.toml:3: field 'uploads.cert_file': a client certificate needs 'uploads.key_file' too "
                    + "(accepted: \"\" or a path; set both or neither)"
            ),
            (
                "headers = \"X-Scope-OrgID=team-a,authorization=Bearer xyz\"",
                "DIR/timerdeck.toml:3: field 'uploads.headers': the header \"authorization\" is set by the uploads "
                    + "themselves; give credentials as a password or token file "
                    + "(accepted: \"\" or \"Name=value,Name=value\")"
            ),
            (
                "confirm_url = \"store.example:9090\"",
                "DIR/timerdeck.toml:3: field 'uploads.confirm_url': the store URL \"store.example:9090\" is not an "
                    + "http:// or https:// URL with a host (accepted: \"\" or the store's http(s) URL, e.g. http://store:9090)"
            ),
            (
                "timeout = \"0s\"",
                "DIR/timerdeck.toml:3: field 'uploads.timeout' = \"0s\" is invalid "
                    + "(accepted: a duration 100ms…5m, e.g. \"250ms\", \"3s\", \"5m\")"
            ),
        ])
    func fieldProblemsNameTheField(field: String, message: String) throws {
        let config = "[uploads]\nurl = \"https://db.example/w\"\n\(field)\n\n" + Self.uploadTimers
        #expect(try Self.startProblem([], config: config) == message)
        #expect(try Self.startProblem([], url: "https://other.example/w", config: config) == message)
    }

    @Test("Every setting a sink can refuse is a config field with its option")
    func everySinkSettingHasItsField() {
        for setting in UploadSetting.allCases {
            let key = UploadsSetup.key(of: setting)
            #expect(Config.fieldsByKey[key] != nil, "\(setting): \(key)")
        }
        #expect(
            throws: UploadError.invalidConfiguration(
                "the upload timeout must be positive, not 0.0 seconds", setting: .timeout)
        ) {
            try HTTPSink(endpoint: "https://db.example/w", timeout: .zero)
        }
    }

    /// Timers driving the uploads, so that a run opens them.
    static let uploadTimers = """
        [[timers]]
        name = "sampler"
        drives = "samples"
        interval = "5s"

        [[timers]]
        name = "uploader"
        drives = "uploads"
        interval = "5m"

        """

    @Test(
        "The config's own credentials and client certificate still name the file's lines when no option replaces them")
    func configProblemsNameTheFile() {
        let config = "[uploads]\ncert_file = \"/c.pem\"\nusername = \"u\"\n"
        #expect(
            Self.problem(["--upload-ca-file", "/ca.pem"], config: config)?.hasSuffix(
                ":3: field 'uploads.username': basic auth needs 'uploads.password_file' too "
                    + "(accepted: \"\" or a user name; set both or neither)") == true)
        #expect(
            Self.problem(["--upload-username", "u", "--upload-password-file", "/p"], config: config)?.hasSuffix(
                ":2: field 'uploads.cert_file': a client certificate needs 'uploads.key_file' too "
                    + "(accepted: \"\" or a path; set both or neither)") == true)
    }

    @Test("A readable config is warned of only when the file itself names credentials, not the options")
    func readableConfigWarningCountsTheFileOnly() throws {
        let scratch = try ScratchDirectory()
        let config = try scratch.write("[uploads]\nurl = \"http://127.0.0.1:9/w\"\n", to: "timerdeck.toml")
        let withHeader = try scratch.write("[uploads]\nheaders = \"X-Source=lab\"\n", to: "headers.toml")
        chmod(config, 0o644)
        chmod(withHeader, 0o644)
        let options = ["--upload-bearer-token-env", "T", "--upload-header", "X-Scope-OrgID=team-a"]
        for (path, warned) in [(config, false), (withHeader, true)] {
            let settings = try TimerDeckCommand.parse(["--config", path] + options).settings()
            let warnings = settings.uploads.exposedSecretWarnings(
                configPath: path, setByOption: settings.isSetByOption)
            #expect(warnings.isEmpty != warned, "\(path): \(warnings)")
        }
    }

    @Test("--help and the manual name every option, and say that none takes a secret itself")
    func helpAndManualNameTheOptions() throws {
        let help = TimerDeckCommand.helpMessage(columns: 80)
        let manual = try String(contentsOfFile: RepositoryFile.path("Docs/Manual.md"), encoding: .utf8)
        let keys = [
            "uploads.username", "uploads.password_file", "uploads.bearer_token_file", "uploads.bearer_token_env",
            "uploads.headers", "uploads.ca_file", "uploads.cert_file", "uploads.key_file",
            "uploads.insecure_skip_verify", "uploads.allow_plain_http",
        ]
        for key in keys {
            let option = Config.option(for: key)
            #expect(help.contains(option + " ") || help.contains(option + "\n"), "--help lacks \(option)")
            #expect(manual.contains("`\(option)"), "the manual lacks \(option)")
        }
        let flattened = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flattened.contains("No option takes a password or token itself"))
    }
}
