import Foundation
import Glibc
import TestSupport
import Testing

/// The uploads' credentials never reach a child: the built `timerdeck` runs headless with a hook
/// and a desktop notification that each write their environment to a file, under every kind of
/// credentials, and neither file nor anything the program writes holds the secret.
@Suite(
    "No credential in any child's environment or in anything timerdeck writes", .serialized,
    .tags(.process), .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct CredentialsInChildrenTests {
    /// One run's credentials: the `[uploads]` fields, the options, and the variables set for it.
    struct Credentials: CustomTestStringConvertible, Sendable {
        var name: String
        /// Whether the run's timers drive the uploads (to a loopback URL nothing listens on).
        var uploads: Bool
        /// `[uploads]` lines of the config.
        var fields: String = ""
        /// Options after the config; `SECRET_FILE` stands for the file holding the secret.
        var options: [String] = []
        /// Variables set for the run; `SECRET` stands for the secret, `OTHER` for a second one.
        var variables: [String: String] = [:]

        var testDescription: String { name }
    }

    static let cases: [Credentials] = [
        Credentials(
            name: "--upload-bearer-token-env, no timer driving the uploads", uploads: false,
            options: ["--upload-bearer-token-env", "TIMERDECK_SCAN_TOKEN"],
            variables: ["TIMERDECK_SCAN_TOKEN": "SECRET"]),
        Credentials(
            name: "--upload-bearer-token-env, uploads to a URL", uploads: true,
            options: ["--upload-bearer-token-env", "TIMERDECK_SCAN_TOKEN"],
            variables: ["TIMERDECK_SCAN_TOKEN": "SECRET"]),
        Credentials(
            name: "uploads.bearer_token_env, no timer driving the uploads", uploads: false,
            fields: "bearer_token_env = \"TIMERDECK_SCAN_TOKEN\"", variables: ["TIMERDECK_SCAN_TOKEN": "SECRET"]),
        Credentials(
            name: "--upload-bearer-token-file, the token also in another variable", uploads: true,
            options: ["--upload-bearer-token-file", "SECRET_FILE"], variables: ["TIMERDECK_SCAN_COPY": "SECRET"]),
        Credentials(
            name: "--upload-password-file, the password also in another variable", uploads: true,
            options: ["--upload-username", "timerdeck", "--upload-password-file", "SECRET_FILE"],
            variables: ["TIMERDECK_SCAN_COPY": "SECRET"]),
        Credentials(
            name: "uploads.bearer_token_env replaced by --upload-bearer-token-file", uploads: true,
            fields: "bearer_token_env = \"TIMERDECK_SCAN_TOKEN\"",
            options: ["--upload-bearer-token-file", "SECRET_FILE"],
            variables: ["TIMERDECK_SCAN_TOKEN": "OTHER"]),
        Credentials(
            name: "uploads.password_file, no timer driving the uploads", uploads: false,
            fields: "username = \"timerdeck\"\npassword_file = \"SECRET_FILE\"",
            variables: ["TIMERDECK_SCAN_COPY": "SECRET"]),
    ]

    @Test("A hook and a notification run under the credentials see none of them", arguments: cases)
    func childrenSeeNoCredential(credentials: Credentials) throws {
        let scratch = try ScratchDirectory()
        let secret = "scan-secret-\(UUID().uuidString)"
        let other = "scan-other-\(UUID().uuidString)"
        let secretFile = try scratch.write(secret + "\n", to: "secret")
        chmod(secretFile, 0o600)
        let hookOutput = scratch.path("hook-environment").path
        let notifyOutput = scratch.path("notify-environment").path
        // The notification's program, found on PATH as notify-send is.
        let bin = scratch.path("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let notifier = try scratch.write("#!/bin/sh\nenv > '\(notifyOutput)'\n", to: "bin/notify-send")
        chmod(notifier, 0o755)

        let uploads = credentials.uploads ? "url = \"http://127.0.0.1:9/api/v1/write\"\n" : ""
        let uploadTimers =
            credentials.uploads
            ? """
            [[timers]]
            name = "sampler"
            drives = "samples"
            interval = "5s"
            mode = "common"

            [[timers]]
            name = "uploader"
            drives = "uploads"
            interval = "30s"
            mode = "common"

            """ : ""
        let config = try scratch.write(
            """
            [uploads]
            \(uploads)\(credentials.fields.replacing("SECRET_FILE", with: secretFile))

            \(uploadTimers)
            [[timers]]
            name = "tea"
            interval = "1m"
            hook = "env > '\(hookOutput)'"

            [[timers]]
            name = "kettle"
            interval = "1m"
            notify = true

            """, to: "timerdeck.toml")
        chmod(config, 0o600)
        let script = try scratch.write("size 120x40\nwait 90s\nsnapshot\nkey ?\nsnapshot\nquit\n", to: "run.txt")
        let trace = scratch.path("trace.jsonl").path

        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        for (name, value) in credentials.variables {
            environment[name] = value.replacing("SECRET", with: secret).replacing("OTHER", with: other)
        }
        let options = credentials.options.map { $0 == "SECRET_FILE" ? secretFile : $0 }
        var written: [(String, String)] = []
        for format in ["--json", "--plain"] {
            let run = try ChildProcess.run(
                BuiltProduct.path("timerdeck"),
                ["--headless", "--script", script, format, "--config", config, "--trace", trace, "--force"] + options,
                timeout: .seconds(120), environment: environment)
            #expect(run.status == 0, "\(run)")
            written += [
                ("standard output (\(format))", run.output), ("standard error (\(format))", run.error),
                ("trace (\(format))", try String(contentsOfFile: trace, encoding: .utf8)),
            ]
        }
        let printed = try ChildProcess.run(
            BuiltProduct.path("timerdeck"), ["--print-config", "--config", config] + options,
            environment: environment)
        written.append(("--print-config", printed.output + printed.error))
        let hook = try String(contentsOfFile: hookOutput, encoding: .utf8)
        let notification = try String(contentsOfFile: notifyOutput, encoding: .utf8)
        #expect(hook.contains("TIMERDECK_TIMER=tea"), "the hook ran")
        #expect(notification.contains("TIMERDECK_NOTIFY_TITLE=kettle"), "the notification ran")
        for (name, text) in [("the hook's environment", hook), ("the notification's environment", notification)] {
            #expect(!text.contains(secret) && !text.contains(other), "the secret is in \(name)")
            for variable in credentials.variables.keys {
                #expect(!text.contains("\(variable)="), "\(variable) is in \(name)")
            }
        }
        #expect(written[0].1.contains("\"rows\""), "the --json snapshot")
        for (name, text) in written {
            #expect(!text.contains(secret) && !text.contains(other), "the secret is in the \(name)")
        }
    }
}
