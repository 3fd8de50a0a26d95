@main
struct TimerDeckCommand {
    static func main() {}
}
