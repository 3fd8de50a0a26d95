import Uploads

extension Config {
    /// The fields an option replaces together: one option of a group replaces the file's whole
    /// group, so the command line's credentials (or client certificate) never mix with the file's.
    static let optionGroups: [Set<String>] = [
        ["uploads.username", "uploads.password_file", "uploads.bearer_token_file", "uploads.bearer_token_env"],
        ["uploads.cert_file", "uploads.key_file"],
    ]

    /// What an option takes where it differs from its field's accepted values (``ConfigField``):
    /// `--upload-header` takes one header, not the field's list; a flag's option takes no value.
    static let optionAccepted = [
        "uploads.headers": "NAME=VALUE, e.g. X-Scope-OrgID=team-a",
        "uploads.insecure_skip_verify": "the flag alone, no value",
        "uploads.allow_plain_http": "the flag alone, no value",
    ]

    /// The command-line option of the `[uploads]` field `key`: `uploads.password_file` is
    /// `--upload-password-file`; `uploads.headers` is `--upload-header`, given once per header.
    package static func option(for key: String) -> String {
        let name = key == "uploads.headers" ? "header" : key.dropFirst("uploads.".count).replacing("_", with: "-")
        return "--upload-\(name)"
    }

    /// Whether a command-line option set the field `key` (the file's value does not count).
    package func isSetByOption(_ key: String) -> Bool { places.option(of: key) != nil }

    /// The field `key` as a message names it: its option when the command line set it, else `'key'`.
    func name(of key: String) -> String {
        places.option(of: key) ?? UserText.field(key)
    }

    /// Sets the `[uploads]` field `key` from its option (``option(for:)``), checked as the field
    /// checks the file's value (`""` sets none): the option's value replaces the file's, and with
    /// a field of a group (the credentials; the client certificate and its key) the file's whole
    /// group. From then on messages about the field name the option.
    /// - Throws: ``ConfigError`` naming the option, the value and what it accepts.
    package mutating func setUploads(_ key: String, fromOption value: String) throws(ConfigError) {
        try set(key, .text(value))
    }

    /// Turns on the `[uploads]` flag `key` from its option (`--upload-insecure-skip-verify`,
    /// `--upload-allow-plain-http`); a flag's option can only turn it on.
    package mutating func setUploads(flag key: String) throws(ConfigError) {
        try set(key, .flag(true))
    }

    /// Sets request headers from `--upload-header NAME=VALUE` options: each replaces the file's
    /// header of the same name (in any case) and the file's other headers stay; the field counts
    /// as set by the option once none of the file's is left.
    /// - Throws: ``ConfigError`` for a value without a name or a value, or a name given twice.
    package mutating func setUploadHeaders(fromOptions pairs: [String]) throws(ConfigError) {
        let option = Self.option(for: "uploads.headers")
        var headers: [String: String] = [:]
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1).map(UploadsConfig.trimmed)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ConfigError(
                    message:
                        "option \(option): \(UserText.quote(pair)) is invalid (accepted: NAME=VALUE, e.g. X-Scope-OrgID=team-a)"
                )
            }
            guard !headers.keys.contains(where: { $0.lowercased() == parts[0].lowercased() }) else {
                throw ConfigError(
                    message: "option \(option): the header \(parts[0]) is given twice; give each header once")
            }
            guard !HTTPAccess.isReserved(parts[0]) else {
                throw ConfigError(
                    message:
                        "option \(option): \(HTTPAccess.reservedHeaderProblem(parts[0])) (accepted: \(Self.optionAccepted["uploads.headers"] ?? ""))"
                )
            }
            headers[parts[0]] = parts[1]
        }
        let replaced = Set(headers.keys.map { $0.lowercased() })
        let kept = uploads.headers.filter { !replaced.contains($0.key.lowercased()) }
        uploads.headers = kept.merging(headers) { $1 }
        if kept.isEmpty { places.set("uploads.headers", byOption: option) }
    }

    /// Stores `value` into the field `key` from its option, replacing the file's group first.
    private mutating func set(_ key: String, _ value: ConfigValue) throws(ConfigError) {
        guard let field = Self.fieldsByKey[key] else { preconditionFailure("no config field \(key)") }
        let option = Self.option(for: key)
        if places.option(of: key) == nil {
            let group = Self.optionGroups.first { $0.contains(key) } ?? []
            // A token variable the file named and an option replaced is still kept from every child
            // (``UploadsConfig/withholdCredentials()``).
            if group.contains("uploads.bearer_token_env"), let name = uploads.bearerTokenEnvironment {
                uploads.replacedTokenEnvironments.append(name)
            }
            for member in group {
                try Self.fieldsByKey[member]?.apply(.text(""), to: &self, source: option)
                places.set(member, byOption: Self.option(for: member))
            }
            places.set(key, byOption: option)
        }
        do {
            try field.apply(value, to: &self, source: option)
        } catch {
            throw ConfigError(
                message: "option \(option): \(value) is invalid (accepted: \(field.accepted))")
        }
    }
}
