import ArgumentParser

/// `--force`: the one way to overwrite a file timerdeck writes. One flag shared by the dashboard's
/// command line and `plot`, so it means the same wherever it is given.
struct ReplaceFlag: ParsableArguments {
    @Flag(
        help: "Replace an existing --trace, --record or plot --out file (an existing --laps file is always refused).")
    var force = false
}
