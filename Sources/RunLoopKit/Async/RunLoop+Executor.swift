extension RunLoop {
    /// The loop as the serial executor of actors bound to it: ``RunLoop/Handle/executor``.
    final class Executor: SerialExecutor {
        let jobs: JobQueue

        init(jobs: JobQueue) {
            self.jobs = jobs
        }

        /// Queues an actor's job to run on the loop's thread (rule C-X1).
        func enqueue(_ job: consuming ExecutorJob) {
            jobs.add(UnownedJob(job), isolated: true)
        }

        /// Stops the program unless the caller runs on the loop's thread, naming both threads.
        func checkIsolated() {
            jobs.checkOnLoopThread("RunLoop.Executor.checkIsolated()")
        }

        /// Whether the caller runs on the loop's thread, which is what isolation to this executor means.
        func isIsolatingCurrentContext() -> Bool? {
            jobs.isOnLoopThread
        }
    }

    /// The loop as the task executor of tasks that prefer it: ``RunLoop/Handle/taskExecutor``.
    final class LoopTaskExecutor: TaskExecutor {
        let jobs: JobQueue

        init(jobs: JobQueue) {
            self.jobs = jobs
        }

        /// Queues a task's job to run on the loop's thread (rule C-X1).
        func enqueue(_ job: consuming ExecutorJob) {
            jobs.add(UnownedJob(job), isolated: false)
        }
    }
}
