// Ported code changes `import Foundation` to `import RunLoopKitFoundationCompat` and keeps using
// `Date`, `TimeInterval` and the rest of FoundationEssentials, which this module re-exports; it is
// the part of Foundation whose types Foundation itself uses, so a file importing both sees one `Date`.
//
// Foundation on Linux re-exports Dispatch, so Darwin code reaches `DispatchQueue`, `DispatchTime` and
// `DispatchSource` through `import Foundation`; this module does the same, so that such a file, too,
// changes only its import. A file importing both sees one Dispatch.
//
// Foundation on Linux also re-exports Glibc (`exit`, `signal`, `fflush`, `isatty` …), which Darwin
// code reaches through Darwin's Foundation: this module does the same.
@_exported import Dispatch
@_exported import FoundationEssentials
@_exported import Glibc
