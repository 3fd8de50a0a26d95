import Glibc

// The installed `timerdeck`. A status bar asks `timerdeck status` every second or so, so this
// program answers it alone, in a few milliseconds (no Foundation, the Swift runtime linked in);
// for everything else, and for a status it cannot answer alone, it becomes the dashboard's program.
if let status = QuickStatus(arguments: Array(CommandLine.arguments.dropFirst()))?.text() {
    print(status)
    exit(0)
}
DashboardProgram.replaceThisProcess()
