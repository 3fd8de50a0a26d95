// Ported code changes `import Foundation` to `import RunLoopKitFoundationCompat` and keeps using
// `Date`, `TimeInterval` and the rest of FoundationEssentials, which this module re-exports; it is
// the part of Foundation whose types Foundation itself uses, so a file importing both sees one `Date`.
@_exported import FoundationEssentials
