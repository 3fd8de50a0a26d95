import Foundation
import Glibc
import TestSupport
import Testing
import Uploads

@testable import TimerDeck

/// The `[uploads]` fields of a locked database: credentials from files or the environment,
/// headers, TLS files, and the warnings for secrets other users can read.
@Suite(.serialized) struct UploadsAccessConfigTests {
    @Test("Basic auth, headers and TLS files are read into the sink's access")
    func fieldsAreRead() throws {
        let config = try Config.parse(
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
            """)
        let access = try UploadsConfig.access(in: config)
        #expect(access.authorization == .basic(username: "123456", passwordFile: "/etc/timerdeck/password"))
        #expect(access.headers == ["X-Scope-OrgID": "team-a"])
        #expect(access.caFile == "/etc/timerdeck/ca.pem")
        #expect(access.certFile == "/etc/timerdeck/client.pem" && access.keyFile == "/etc/timerdeck/client-key.pem")
        #expect(access.insecureSkipVerify && access.allowPlainHTTP)
    }

    @Test(
        "Two kinds of credentials, or a user name without its password file, are refused",
        arguments: [
            "username = \"u\"\npassword_file = \"/p\"\nbearer_token_file = \"/t\"",
            "bearer_token_file = \"/t\"\nbearer_token_env = \"T\"",
            "username = \"u\"",
            "password_file = \"/p\"",
        ])
    func conflictingCredentials(fields: String) throws {
        let config = try Config.parse("[uploads]\n\(fields)")
        #expect {
            try UploadsConfig.access(in: config)
        } throws: { error in
            // The place, the field and what it accepts, as every config error says them.
            let text = "\(error)"
            return text.hasPrefix("config:") && text.contains(": field 'uploads.") && text.contains("(accepted: ")
        }
    }

    @Test("A token from the environment is taken once and removed, so no hook inherits it; an unset one is refused")
    func tokenFromTheEnvironment() throws {
        setenv("TIMERDECK_ACCESS_TEST_TOKEN", "hunter2", 1)
        setenv("TIMERDECK_ACCESS_TEST_COPY", "hunter2", 1)
        let config = try Config.parse("[uploads]\nbearer_token_env = \"TIMERDECK_ACCESS_TEST_TOKEN\"")
        let access = try UploadsConfig.access(in: config)
        #expect(access.authorization == .bearer(HTTPAccess.Secret("hunter2")))
        #expect(getenv("TIMERDECK_ACCESS_TEST_TOKEN") == nil)
        // Taken once: the access made again has the token the first took.
        #expect(try UploadsConfig.access(in: config).authorization == .bearer(HTTPAccess.Secret("hunter2")))
        // No child gets the variable, or another holding the token.
        setenv("TIMERDECK_ACCESS_TEST_TOKEN", "hunter2", 1)
        let children = ChildEnvironment.variables(adding: ["TIMERDECK_TIMER": "tea"])
        unsetenv("TIMERDECK_ACCESS_TEST_COPY")
        #expect(children.contains("TIMERDECK_TIMER=tea") && children.contains { $0.hasPrefix("PATH=") })
        #expect(!children.contains { $0.contains("hunter2") || $0.hasPrefix("TIMERDECK_ACCESS_TEST_TOKEN=") })
        unsetenv("TIMERDECK_ACCESS_TEST_TOKEN")
        let unset = try Config.parse("[uploads]\nbearer_token_env = \"TIMERDECK_ACCESS_TEST_UNSET\"")
        #expect {
            try UploadsConfig.access(in: unset)
        } throws: { error in
            "\(error)".hasSuffix(
                ":2: field 'uploads.bearer_token_env': the environment variable TIMERDECK_ACCESS_TEST_UNSET is not set "
                    + "(accepted: \"\" or an environment variable's name; export it before starting)")
        }
    }

    @Test("A config naming a secret file, or the secret file itself, readable by other users gets a chmod 600 warning")
    func readableSecretsAreWarnedOf() throws {
        let scratch = try ScratchDirectory()
        let password = try scratch.write("hunter2\n", to: "password")
        let path = try scratch.write(
            "[uploads]\nusername = \"u\"\npassword_file = \"\(password)\"\n", to: "timerdeck.toml")
        let uploads = try Config.load(from: path).uploads
        chmod(path, 0o644)
        chmod(password, 0o640)
        #expect(
            uploads.exposedSecretWarnings(configPath: path) == [
                "warning: \(path) names the uploads' credentials and other users can read it; chmod 600 \(path)",
                "warning: uploads.password_file \(password) can be read by other users; chmod 600 \(password)",
            ])
        chmod(path, 0o600)
        chmod(password, 0o600)
        #expect(uploads.exposedSecretWarnings(configPath: path).isEmpty)
        let open = try scratch.write("[uploads]\nurl = \"http://127.0.0.1:9/w\"\n", to: "open.toml")
        chmod(open, 0o644)
        #expect(try Config.load(from: open).uploads.exposedSecretWarnings(configPath: open).isEmpty)
    }

    @Test("The shipped config shows every credentials field, commented, with no secret in it")
    func shippedExamples() {
        for key in [
            "username", "password_file", "bearer_token_file", "bearer_token_env", "headers", "ca_file", "cert_file",
            "key_file", "insecure_skip_verify", "allow_plain_http",
        ] {
            #expect(ShippedFile.config.contains("\n# \(key) = "), "\(key)")
        }
        #expect(!ShippedFile.config.contains("password = "))
    }

    @Test(
        "The README's and the manual's credentials examples are configs timerdeck takes, with every secret in a file",
        arguments: ["README.md", "Docs/Manual.md"])
    func documentedExamples(document: String) throws {
        let text = try String(contentsOfFile: RepositoryFile.path(document), encoding: .utf8)
        let blocks = text.components(separatedBy: "```toml\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        let credentials = blocks.filter { $0.contains("_file = ") }
        #expect(credentials.count >= 2, "a Grafana-Cloud-style and a Mimir-style example")
        for block in credentials {
            let config = try Config.parse(block)
            let access = try UploadsConfig.access(in: config)
            #expect(access.authorization != .none, "\(block)")
            #expect(!block.contains("password =") && !block.contains("token ="), "a secret in the config: \(block)")
        }
        #expect(credentials.contains { $0.contains("X-Scope-OrgID=") }, "a tenant header")
    }

    @Test("Credentials over plain HTTP to another host stop the start with the place, the field and the way out")
    func plainHTTPCredentialsStopTheStart() throws {
        let fields =
            "[uploads]\nurl = \"http://db.example:9090/api/v1/write\"\nusername = \"u\"\npassword_file = \"/p\"\n"
        #expect {
            try UploadsSetup(config: try Config.parse(fields), outboxPath: nil, uploadURL: nil, headless: true)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("config:2: field 'uploads.url': credentials would cross the network unencrypted")
                && text.contains("uploads.allow_plain_http = true")
        }
        let allowed = try Config.parse(fields + "allow_plain_http = true\n")
        _ = try UploadsSetup(config: allowed, outboxPath: nil, uploadURL: nil, headless: true)
    }
}
