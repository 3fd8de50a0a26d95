import Foundation
import Glibc
import TestSupport
import Testing
import Uploads

extension LoopbackServerSuites {
    /// Uploads to a database that is locked: Debian's Prometheus on loopback behind TLS (a CA and
    /// certificates made by `openssl`) and basic auth, and the collector for the tenant header.
    @Suite(.serialized, .tags(.process, .slow)) struct SecuredUploadsTests {
        static let user = "timerdeck"
        static let password = "correct-horse-battery-staple"

        /// Prometheus serving `certificate` (a file of `tls`) with the server key, to ``user``
        /// with ``password``; with `clientCertificates`, only to clients the test CA certified.
        static func prometheus(_ tls: TLSFixture, certificate: String = "server.pem", clientCertificates: Bool = false)
            throws -> PrometheusProcess
        {
            try PrometheusProcess(
                web: .init(
                    certFile: tls.path(certificate), keyFile: tls.path("server.key"), user: user, password: password,
                    clientCAFile: clientCertificates ? tls.path("ca.pem") : nil,
                    clientCertificate: clientCertificates ? (tls.path("client.pem"), tls.path("client.key")) : nil))
        }

        /// A remote-write sink for `endpoint` trusting the test CA, with basic auth reading `passwordFile`.
        static func sink(
            _ endpoint: String, tls: TLSFixture, passwordFile: String, instance: String, clientCertificate: Bool = false
        ) throws -> HTTPSink {
            var access = HTTPAccess()
            access.authorization = .basic(username: user, passwordFile: passwordFile)
            access.caFile = tls.path("ca.pem")
            if clientCertificate {
                access.certFile = tls.path("client.pem")
                access.keyFile = tls.path("client.key")
            }
            return try HTTPSink(
                endpoint: endpoint, timeout: .seconds(30), format: .remoteWrite(try RemoteWrite(instance: instance)),
                access: access)
        }

        /// The test CA and certificates (``TLSFixture``), which `openssl` makes.
        static func certificates() throws -> TLSFixture {
            try TestRequirements.commands("openssl")
            return try TLSFixture()
        }

        /// A file holding `text`, readable by its owner only.
        static func secretFile(_ text: String, in scratch: ScratchDirectory) throws -> String {
            let path = try scratch.write(text, to: "password")
            chmod(path, 0o600)
            return path
        }

        let batch = Batch(
            id: UUID(), createdAt: SampleFixtures.time(300),
            samples: [StoredSample(seq: 1, sample: SampleFixtures.position(0))])

        @Test("Over TLS with the right password, a 10-minute scene's every point is in Prometheus once")
        func rightCredentialsDeliverEveryPoint() throws {
            let tls = try Self.certificates()
            let prometheus = try Self.prometheus(tls)
            let password = try Self.secretFile(Self.password + "\n", in: tls.scratch)
            let scene = try UploadPipelineTests.Scene(sink: { _ in
                try Self.sink(prometheus.endpoint, tls: tls, passwordFile: password, instance: "secured")
            })
            scene.pipeline.start()
            scene.run(untilSecond: 600)
            #expect(scene.pipeline.flush() == 0)
            #expect(scene.pipeline.status.lastAttempt?.statusCode == 204)
            let check = try PrometheusSinkTests()
            try check.expectStored(check.routeScene(count: 120), in: prometheus, instance: "secured")
        }

        @Test(
            "A wrong password: refused with the server's words, the batches kept; the fixed file is read by the next attempt and they all go"
        )
        func wrongPasswordIsRefusedKeptThenDelivered() throws {
            let tls = try Self.certificates()
            let prometheus = try Self.prometheus(tls)
            let password = try Self.secretFile("wrong", in: tls.scratch)
            let scene = try UploadPipelineTests.Scene(sink: { _ in
                try Self.sink(prometheus.endpoint, tls: tls, passwordFile: password, instance: "fixed")
            })
            scene.pipeline.start()
            scene.run(untilSecond: 600)
            let refused = try #require(scene.pipeline.status.refused)
            #expect(refused.error == .rejected(status: 401, message: "Unauthorized"))
            #expect(refused.error.refusesCredentials)
            #expect(
                refused.error.description
                    == "The server rejected the batch with 401 Unauthorized: Unauthorized. It stays in the outbox. "
                    + "Check the password or token file; the next attempt reads it again.")
            let counters = try scene.outbox.counters()
            #expect(counters.deliveredSamples == 0 && counters.pendingSamples >= 119, "\(counters)")

            _ = try Self.secretFile(Self.password, in: tls.scratch)
            scene.run(untilSecond: 900)
            #expect(scene.pipeline.flush() == 0)
            #expect(scene.pipeline.status.refused == nil, "\(String(describing: scene.pipeline.status.refused))")
            let check = try PrometheusSinkTests()
            try check.expectStored(check.routeScene(count: 180), in: prometheus, instance: "fixed")
        }

        @Test("A certificate no trusted authority signed: refused in words, retried, the batches kept")
        func untrustedCertificateIsRefusedAndKept() throws {
            let tls = try Self.certificates()
            let prometheus = try Self.prometheus(tls, certificate: "self-signed.pem")
            let password = try Self.secretFile(Self.password, in: tls.scratch)
            let scene = try UploadPipelineTests.Scene(sink: { _ in
                try Self.sink(prometheus.endpoint, tls: tls, passwordFile: password, instance: "untrusted")
            })
            scene.pipeline.start()
            scene.run(untilSecond: 600)
            let error = try #require(scene.pipeline.status.lastAttempt?.error)
            #expect(
                error
                    == .tlsFailed(
                        destination: prometheus.endpoint,
                        reason: "the server's certificate is not signed by a trusted authority "
                            + "(give its CA as uploads.ca_file)"))
            #expect(error.isRetryable)
            #expect(try scene.outbox.counters().deliveredSamples == 0)
        }

        @Test("An expired certificate says when it expired")
        func expiredCertificateSaysWhen() throws {
            let tls = try Self.certificates()
            let prometheus = try Self.prometheus(tls, certificate: "expired.pem")
            let password = try Self.secretFile(Self.password, in: tls.scratch)
            let sink = try Self.sink(prometheus.endpoint, tls: tls, passwordFile: password, instance: "expired")
            let error = try #require(deliver(batch, to: sink)?.error)
            #expect(
                error
                    == .tlsFailed(
                        destination: prometheus.endpoint, reason: "the server's certificate expired on 2020-01-02"))
        }

        @Test("A certificate for another host name says so")
        func wrongHostNameSaysSo() throws {
            let tls = try Self.certificates()
            let prometheus = try Self.prometheus(tls)
            let password = try Self.secretFile(Self.password, in: tls.scratch)
            let endpoint = "https://127.0.0.1:\(prometheus.port)/api/v1/write"
            let sink = try Self.sink(endpoint, tls: tls, passwordFile: password, instance: "host")
            let error = try #require(deliver(batch, to: sink)?.error)
            guard case .tlsFailed(endpoint, let reason) = error else {
                Issue.record("not a TLS failure: \(error)")
                return
            }
            #expect(reason.hasPrefix("the server's certificate is for another host name"), "\(reason)")
        }

        @Test("A server that requires a client certificate takes the CA's, and says it wants one without it")
        func clientCertificate() throws {
            let tls = try Self.certificates()
            let prometheus = try Self.prometheus(tls, clientCertificates: true)
            let password = try Self.secretFile(Self.password, in: tls.scratch)
            let without = try Self.sink(prometheus.endpoint, tls: tls, passwordFile: password, instance: "mtls")
            let error = try #require(deliver(batch, to: without)?.error)
            guard case .tlsFailed(_, let reason) = error else {
                Issue.record("not a TLS failure: \(error)")
                return
            }
            #expect(reason.contains("client certificate"), "\(reason)")
            let with = try Self.sink(
                prometheus.endpoint, tls: tls, passwordFile: password, instance: "mtls", clientCertificate: true)
            #expect(deliver(batch, to: with)?.ack?.statusCode == 204)
        }

        @Test("A tenant header reaches the server with every batch")
        func tenantHeaderIsSent() throws {
            let collector = try CollectorProcess()
            var access = HTTPAccess()
            access.headers = ["X-Scope-OrgID": "team-a"]
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30), access: access)
            _ = try #require(deliver(batch, to: sink)?.ack)
            #expect(try collector.received().tenants == ["team-a"])
        }

        /// The `[uploads]` section and timers of a headless secret-scan run: samples every 5 s,
        /// an upload every 5 minutes, and a hook writing its environment to `hookOutput`.
        static func scanConfig(uploads: String, hookOutput: String) -> String {
            """
            [uploads]
            \(uploads)

            [[timers]]
            name = "sampler"
            drives = "samples"
            interval = "5s"
            mode = "common"

            [[timers]]
            name = "uploader"
            drives = "uploads"
            interval = "5m"
            mode = "common"

            [[timers]]
            name = "tea"
            interval = "1m"
            hook = "env > \(hookOutput)"

            """
        }

        /// Runs `config` headless (the screen at 6 minutes, the help overlay, quit) with
        /// `environment`, and returns every text the program wrote: screen captures and `--json`
        /// (standard output), standard error, the trace, the hook's environment and
        /// `--print-config`'s output.
        static func everythingWritten(config: String, environment: [String: String], in scratch: ScratchDirectory)
            throws -> [(String, String)]
        {
            let script = try scratch.write("size 120x40\nwait 6m\nsnapshot\nkey ?\nsnapshot\nquit\n", to: "run.txt")
            let trace = scratch.path("trace.jsonl")
            let output = scratch.path("stdout.json")
            let outcome = try TimerDeckProcess(
                script: script,
                ["--config", config, "--json", "--trace", trace.path, "--outbox", scratch.path("outbox.sqlite").path],
                environment: environment, output: output
            ).finish()
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let printed = try ChildProcess.run(
                TimerDeckProcess.binary, ["--print-config", "--config", config], environment: environment)
            return [
                ("standard output (screens and --json)", try String(contentsOf: output, encoding: .utf8)),
                ("standard error", outcome.standardError),
                ("trace", try String(contentsOf: trace, encoding: .utf8)),
                (
                    "hook environment",
                    try String(contentsOfFile: scratch.path("hook-environment").path, encoding: .utf8)
                ),
                ("--print-config", printed.output + printed.error),
            ]
        }

        @Test(
            "A headless run with a token and a tenant: the token is in no screen, --json, trace, error output, hook environment or --print-config"
        )
        func tokenIsNeverWritten() throws {
            guard TimerDeckProcess.isBuilt else {
                Issue.record("timerdeck is not built beside the tests")
                return
            }
            let collector = try CollectorProcess()
            let scratch = try ScratchDirectory()
            let token = "s3cr3t-token-\(UUID().uuidString)"
            let config = try scratch.write(
                Self.scanConfig(
                    uploads: """
                        url = "\(collector.endpoint)"
                        bearer_token_env = "TIMERDECK_TEST_TOKEN"
                        headers = "X-Scope-OrgID=team-a"
                        """, hookOutput: scratch.path("hook-environment").path), to: "timerdeck.toml")
            chmod(config, 0o600)
            let written = try Self.everythingWritten(
                config: config, environment: ["TIMERDECK_TEST_TOKEN": token], in: scratch)
            let tenants = try collector.received().tenants
            #expect(!tenants.isEmpty && tenants.allSatisfy { $0 == "team-a" }, "\(tenants)")
            #expect(written[0].1.contains("\"uploads\""), "the --json snapshot has the uploads")
            #expect(written[3].1.contains("TIMERDECK_TIMER=tea"), "the hook ran")
            #expect(!written[3].1.contains("TIMERDECK_TEST_TOKEN"), "the hook inherited the token's variable")
            for (name, text) in written { #expect(!text.contains(token), "the token is in the \(name)") }
        }

        @Test(
            "Credentials and a tenant from the command line replace the config's: every batch carries the option's token and tenant"
        )
        func optionsReplaceTheConfigsCredentials() throws {
            guard TimerDeckProcess.isBuilt else {
                Issue.record("timerdeck is not built beside the tests")
                return
            }
            let collector = try CollectorProcess()
            let scratch = try ScratchDirectory()
            let token = "option-token-\(UUID().uuidString)"
            // The config's token file does not exist: a batch sent with the config's credentials fails.
            let config = try scratch.write(
                Self.scanConfig(
                    uploads: """
                        url = "\(collector.endpoint)"
                        bearer_token_file = "\(scratch.path("missing-token").path)"
                        headers = "X-Scope-OrgID=team-a"
                        """, hookOutput: scratch.path("hook-environment").path), to: "timerdeck.toml")
            chmod(config, 0o600)
            let script = try scratch.write("wait 6m\nquit\n", to: "run.txt")
            let outcome = try TimerDeckProcess(
                script: script,
                [
                    "--config", config, "--upload-bearer-token-env", "TIMERDECK_OPTION_TOKEN", "--upload-header",
                    "X-Scope-OrgID=team-b",
                ],
                environment: ["TIMERDECK_OPTION_TOKEN": token]
            ).finish()
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let received = try collector.received()
            #expect(received.requests >= 1 && received.rejected == 0, "\(received)")
            #expect(received.tenants.allSatisfy { $0 == "team-b" }, "\(received.tenants)")
            #expect(received.authorizations.allSatisfy { $0 == "Bearer \(token)" })
            #expect(!outcome.standardError.contains(token))
        }

        @Test(
            "A headless run whose password the server refuses: the refusal is shown, the password is in nothing written"
        )
        func refusedPasswordIsNeverWritten() throws {
            guard TimerDeckProcess.isBuilt else {
                Issue.record("timerdeck is not built beside the tests")
                return
            }
            let collector = try CollectorProcess()
            try collector.control(["status": 401])
            let scratch = try ScratchDirectory()
            let password = "pa55-\(UUID().uuidString)"
            let passwordFile = try Self.secretFile(password, in: scratch)
            let config = try scratch.write(
                Self.scanConfig(
                    uploads: """
                        url = "\(collector.endpoint)"
                        username = "timerdeck"
                        password_file = "\(passwordFile)"
                        """, hookOutput: scratch.path("hook-environment").path), to: "timerdeck.toml")
            chmod(config, 0o600)
            let written = try Self.everythingWritten(config: config, environment: [:], in: scratch)
            #expect(try collector.received().requests >= 1)
            #expect(written[0].1.contains("401"), "the refusal is shown")
            let encoded = Data("timerdeck:\(password)".utf8).base64EncodedString()
            for (name, text) in written {
                #expect(!text.contains(password), "the password is in the \(name)")
                #expect(!text.contains(encoded), "the encoded credentials are in the \(name)")
            }
        }
    }
}

/// The settings that never reach a server: credentials in clear text, reserved headers, a
/// password in the URL, files that cannot be read.
@Suite struct HTTPAccessTests {
    var basic: HTTPAccess {
        var access = HTTPAccess()
        access.authorization = .basic(username: "u", passwordFile: "/nonexistent/password")
        return access
    }

    @Test("Credentials over plain HTTP to a host off loopback are refused unless allowed; loopback is fine")
    func plainHTTPWithCredentials() throws {
        #expect {
            try HTTPSink(endpoint: "http://db.example:9090/api/v1/write", timeout: .seconds(1), access: basic)
        } throws: { error in
            "\(error)".contains("credentials would cross the network unencrypted to db.example")
        }
        var allowed = basic
        allowed.allowPlainHTTP = true
        _ = try HTTPSink(endpoint: "http://db.example:9090/api/v1/write", timeout: .seconds(1), access: allowed)
        for host in ["127.0.0.1", "localhost", "[::1]"] {
            _ = try HTTPSink(endpoint: "http://\(host):9090/api/v1/write", timeout: .seconds(1), access: basic)
        }
        _ = try HTTPSink(endpoint: "http://db.example:9090/api/v1/write", timeout: .seconds(1))
    }

    @Test(
        "An Authorization header, a password in the URL, a certificate without its key are refused, the password unsaid"
    )
    func unusableSettings() throws {
        var header = HTTPAccess()
        header.headers = ["authorization": "Bearer xyz"]
        #expect(throws: UploadError.self) {
            try HTTPSink(endpoint: "https://db.example/w", timeout: .seconds(1), access: header)
        }
        #expect {
            try HTTPSink(endpoint: "https://u:hunter2@db.example/w", timeout: .seconds(1))
        } throws: { error in
            "\(error)".contains("holds a password") && !"\(error)".contains("hunter2")
        }
        #expect {
            try HTTPSink(endpoint: "ftp://u:hunter2@db.example/w", timeout: .seconds(1))
        } throws: { error in
            "\(error)".contains("\"ftp://u:***@db.example/w\" must start with http://")
        }
        var halfPair = HTTPAccess()
        halfPair.certFile = "/etc/client.pem"
        #expect(throws: UploadError.self) {
            try HTTPSink(endpoint: "https://db.example/w", timeout: .seconds(1), access: halfPair)
        }
    }

    @Test("A password file that cannot be read fails the delivery, names the file, and is read again next time")
    func unreadablePasswordFile() throws {
        let collector = try CollectorProcess()
        let scratch = try ScratchDirectory()
        var access = HTTPAccess()
        let path = scratch.path("password").path
        access.authorization = .basic(username: "u", passwordFile: path)
        let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30), access: access)
        let batch = Batch(
            id: UUID(), createdAt: SampleFixtures.time(300),
            samples: [StoredSample(seq: 1, sample: SampleFixtures.position(0))])
        let error = try #require(deliver(batch, to: sink)?.error)
        #expect(error == .credentialsUnreadable(path: path, reason: "No such file or directory"))
        #expect(error.refusesCredentials && !error.isRetryable)
        _ = try scratch.write("pw\n", to: "password")
        #expect(deliver(batch, to: sink)?.ack?.statusCode == 200)
    }

    @Test("A secret's description is a mask")
    func secretIsMasked() {
        let secret = HTTPAccess.Secret("hunter2")
        #expect("\(secret)" == "<hidden>")
        #expect(!String(reflecting: HTTPAccess.Authorization.bearer(secret)).contains("hunter2"))
    }
}

extension UploadMachineTests {
    @Test(
        "A batch refused for its credentials (401) is not set aside: the next upload tries it first, and its success ends the refusal"
    )
    func credentialRefusalKeepsTheBatchFirst() {
        var machine = delivering()
        let refusal = UploadError.rejected(status: 401, message: "Unauthorized")
        #expect(machine.apply(answer(.failure(refusal))) == [.recordFailure(batch, refusal, lookup: nil)])
        #expect(machine.rejected.isEmpty)
        #expect(machine.status.refused?.error == refusal)
        #expect(machine.apply(.recorded(batch, counters(pending: 1), .notAsked)) == [])
        #expect(machine.state == .idle)

        #expect(machine.apply(.uploadDue) == [.cutBatch(lookup: [])])
        #expect(machine.apply(.cut(counters(pending: 2), .found(batch))) == [.deliver(batch)])
        #expect(machine.apply(answer(.success(ack))) == [.markSent(batch, lookup: [])])
        #expect(machine.status.refused == nil)
    }

    @Test("A refusal of the batch itself (422) sets it aside until the next start")
    func otherRefusalsStaySkipped() {
        var machine = delivering()
        #expect(machine.apply(answer(.failure(rejection))) == [.recordFailure(batch, rejection, lookup: [batch.id])])
        #expect(machine.rejected == [batch.id])
    }
}
