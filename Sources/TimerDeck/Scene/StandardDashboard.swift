import RunLoopKit
import TerminalUI
import Uploads

/// The composition root of the standard dashboard: the standard scene built from the config, its
/// driver on a loop and a screen.
package enum StandardDashboard {
    /// The driver of ``Scene/standard(_:uploadsLabel:)`` on `loop` and `screen`, not yet launched.
    ///
    /// `pipeline` (on `loop`, named `sinkLabel` in its panel) drives the upload rows. With
    /// `rendersOnChange`, each change is drawn at the end of the loop's pass (a terminal); without,
    /// only when ``DashboardDriver/render(everything:)`` is called (headless snapshots).
    package static func make(
        config: Config, loop: RunLoop, screen: any Screen, pipeline: UploadPipeline?,
        sinkLabel: String, rendersOnChange: Bool
    ) -> DashboardDriver {
        let label = pipeline.map { sinkLabel.isEmpty ? $0.sink.destination : sinkLabel }
        return DashboardDriver(
            scene: .standard(config, uploadsLabel: label), loop: loop, screen: screen,
            pipeline: pipeline, rendersOnChange: rendersOnChange)
    }
}
