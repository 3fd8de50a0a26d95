import RunLoopKitFoundationCompat
import Testing

// This file imports nothing else: Darwin code that calls the C library through `import Foundation`
// compiles with only its import changed.

/// Glibc comes with `import RunLoopKitFoundationCompat`, as it comes with Foundation on Linux.
@Suite("Glibc through the import")
struct GlibcThroughTheImportTests {
    @Test("isatty, fflush and getpid are visible with only this module imported")
    func cLibraryIsReExported() {
        #expect(isatty(-1) == 0)
        #expect(errno == EBADF)
        #expect(fflush(nil) == 0)
        #expect(getpid() > 0)
    }

    @Test("exit ends the process with its status")
    func exitIsReExported() async {
        await #expect(processExitsWith: .exitCode(3)) { exit(3) }
    }
}
