import CoreMetrics
import FocalEngine
import FocalRuntime
import Prometheus
import Synchronization

/// The server's metrics, recorded through swift-metrics: by default with its global factory
/// (`MetricsSystem.factory`), so the metrics backend an application bootstraps receives them;
/// `focal serve` bootstraps swift-prometheus (``bootstrapPrometheus()``) and `GET /metrics`
/// writes its registry.
///
/// | metric | kind | what |
/// |---|---|---|
/// | `focal_sessions_live` | gauge | sessions hosted now |
/// | `focal_ops_total` | counter | op lines applied (rebuilds included) |
/// | `focal_results_total` | counter | task results produced |
/// | `focal_errors_total{kind}` | counter | errors: `malformed_op`, `invalid_op`, `refused_op`, `over_memory_budget`, `task_failed`, `task_file_failed` |
/// | `focal_task_timeouts_total` | counter | task calls stopped by the time limit |
/// | `focal_request_duration_seconds{route,status}` | histogram | request latency |
/// | `focal_outbox_depth` | gauge | results in the outbox waiting for delivery |
/// | `focal_idle_sessions_ended_total` | counter | sessions ended by the idle timeout |
/// | `focal_sessions_rebuilt_total` | counter | sessions rebuilt from the journal |
/// | `focal_request_deadline_exceeded_total` | counter | requests answered 503 at their deadline (`--request-timeout`) |
/// | `focal_store_call_duration_seconds{operation}` | histogram | session store calls (journal, outbox) |
/// | `focal_store_errors_total{operation}` | counter | failed session store calls (each answered 503) |
/// | `focal_connections_open` | gauge | HTTP connections open now (`focal serve`'s application) |
/// | `process_resident_memory_bytes`, `process_open_fds`, `process_max_fds`, `process_cpu_seconds_total` | gauges, counter | the process, read at each scrape (`/proc`, `getrlimit`, `getrusage`) |
///
/// Every metric has a `# HELP` line in `GET /metrics`. The gauges are set when they change, so
/// a backend that is pushed to (statsd, OpenTelemetry) sees them move without a scrape:
/// `focal_sessions_live` when a session is added or removed, `focal_connections_open` when a
/// connection of `focal serve`'s application opens or closes, and `focal_outbox_depth`
/// whenever the delivery pipeline reads the outbox's totals: at each append, and at each round
/// of its delivery loop (before a flush and when it schedules the next one, so after each
/// flush) — the depth is a count in the store, so it is never read for a scrape alone.
/// A result another instance appends to a shared outbox shows at this pipeline's next round.
public final class ServerMetrics: Sendable {
    /// The Prometheus registry ``exposition()`` writes, if the metrics are exposed by
    /// `GET /metrics`.
    public let registry: PrometheusCollectorRegistry?
    private let factory: any MetricsFactory
    let sessionsLive: Meter
    let connectionsOpen: Meter
    let outboxDepth: Meter
    let ops: CoreMetrics.Counter
    let results: CoreMetrics.Counter
    let taskTimeouts: CoreMetrics.Counter
    let idleSessionsEnded: CoreMetrics.Counter
    let sessionsRebuilt: CoreMetrics.Counter
    let requestDeadlinesExceeded: CoreMetrics.Counter
    private let storeCalls: [StoreOperation: CoreMetrics.Timer]
    private let storeErrors: [StoreOperation: CoreMetrics.Counter]
    private let errors: [EngineError.Kind: CoreMetrics.Counter]
    /// The latency histogram of each route and status seen, made once: making one looks it
    /// up in the factory by its label and dimensions.
    private let requestTimers = Mutex<[RequestSeries: CoreMetrics.Timer]>([:])

    private struct RequestSeries: Hashable {
        var route: String
        var status: Int
    }

    /// Metrics made by `factory`.
    /// - Parameters:
    ///   - factory: makes every metric; by default swift-metrics' global factory, so the
    ///     backend your application bootstraps receives them.
    ///   - registry: the Prometheus registry `GET /metrics` writes (the one `factory`
    ///     records to); without one, `GET /metrics` has only the process's own metrics and
    ///     the others are wherever `factory` sends them.
    public init(factory: any MetricsFactory = MetricsSystem.factory, exposing registry: PrometheusCollectorRegistry? = nil) {
        self.registry = registry
        self.factory = factory
        sessionsLive = Meter(label: "focal_sessions_live", factory: factory)
        connectionsOpen = Meter(label: "focal_connections_open", factory: factory)
        outboxDepth = Meter(label: "focal_outbox_depth", factory: factory)
        ops = CoreMetrics.Counter(label: "focal_ops_total", factory: factory)
        results = CoreMetrics.Counter(label: "focal_results_total", factory: factory)
        taskTimeouts = CoreMetrics.Counter(label: "focal_task_timeouts_total", factory: factory)
        idleSessionsEnded = CoreMetrics.Counter(label: "focal_idle_sessions_ended_total", factory: factory)
        sessionsRebuilt = CoreMetrics.Counter(label: "focal_sessions_rebuilt_total", factory: factory)
        requestDeadlinesExceeded = CoreMetrics.Counter(label: "focal_request_deadline_exceeded_total", factory: factory)
        storeCalls = Dictionary(
            uniqueKeysWithValues: StoreOperation.allCases.map { operation in
                let dimensions = [("operation", operation.rawValue)]
                return (operation, CoreMetrics.Timer(label: "focal_store_call_duration_seconds", dimensions: dimensions, factory: factory))
            })
        storeErrors = Dictionary(
            uniqueKeysWithValues: StoreOperation.allCases.map { operation in
                let dimensions = [("operation", operation.rawValue)]
                return (operation, CoreMetrics.Counter(label: "focal_store_errors_total", dimensions: dimensions, factory: factory))
            })
        errors = Dictionary(
            uniqueKeysWithValues: EngineError.Kind.lineErrorKinds.map { kind in
                (kind, CoreMetrics.Counter(label: "focal_errors_total", dimensions: [("kind", kind.metricKind)], factory: factory))
            })
    }

    /// Metrics recorded straight to a Prometheus registry of their own, apart from the global
    /// factory, which `GET /metrics` writes: several servers in one process (tests) keep
    /// theirs apart.
    public static func prometheus(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) -> ServerMetrics {
        ServerMetrics(factory: prometheusFactory(registry: registry), exposing: registry)
    }

    /// Bootstraps swift-metrics (`MetricsSystem.bootstrap`) with a Prometheus factory on a new
    /// registry, and answers metrics through it that `GET /metrics` writes. What `focal serve`
    /// does at start; swift-metrics allows one bootstrap per process, so call it once.
    public static func bootstrapPrometheus() -> ServerMetrics {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(prometheusFactory(registry: registry))
        return ServerMetrics(exposing: registry)
    }

    /// A Prometheus factory recording to `registry`, with latency buckets from 100 µs to 10 s.
    public static func prometheusFactory(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        return factory
    }

    /// Counts what applying a batch produced.
    func record(_ outcome: ApplyOutcome) {
        ops.increment(by: outcome.applied)
        results.increment(by: outcome.results.count)
        for (kind, count) in outcome.errorCounts { errors[kind]?.increment(by: count) }
        taskTimeouts.increment(by: outcome.timeouts)
    }

    /// Records one session store call's latency.
    func recordStoreCall(_ operation: StoreOperation, duration: Duration) {
        storeCalls[operation]?.recordNanoseconds(duration.nanoseconds)
    }

    /// Counts a failed session store call.
    func recordStoreError(_ operation: StoreOperation) {
        storeErrors[operation]?.increment()
    }

    /// Records one request's latency.
    func recordRequest(route: String, status: Int, duration: Duration) {
        let key = RequestSeries(route: route, status: status)
        let timer = requestTimers.withLock { timers in
            if let timer = timers[key] { return timer }
            let timer = CoreMetrics.Timer(
                label: "focal_request_duration_seconds", dimensions: [("route", route), ("status", String(status))],
                factory: factory)
            timers[key] = timer
            return timer
        }
        timer.recordNanoseconds(duration.nanoseconds)
    }

    /// The metrics of ``registry`` in Prometheus's text format, each with its `# HELP` line
    /// (`MetricHelp`), then the process's own (`ProcessMetrics`).
    public func exposition() -> String {
        (registry.map { MetricHelp.annotate($0.emitToString()) } ?? "") + ProcessMetrics.exposition()
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product &+ attoseconds / 1_000_000_000
    }
}
