package com.example.service;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.dsl.RecordStream;
import io.weir.serde.Serdes;

/**
 * The service: temperature readings above {@link #THRESHOLD} become alerts, and the alerts are
 * counted per sensor.
 *
 * <pre>
 * readings     (sensor → Reading JSON)
 *   → filter temperature &gt; 90 °F → alerts        (sensor → Alert JSON)
 *   → count per sensor (store "alert-counts") → alert-counts  (sensor → Long)
 * </pre>
 *
 * <p>{@link #topology()} and {@link #config()} are what {@link #main} runs and what the tests
 * run, so the tests check the service as deployed. Start as many copies as you like: they join
 * one consumer group and share the partitions; outputs, counts and input offsets are committed
 * together (exactly-once).
 */
public final class AlertService {

    /** The consumer group, and the prefix of the topics Weir creates (changelog, dead letters). */
    public static final String APPLICATION_ID = "my-weir-service";
    public static final String READINGS = "readings";
    public static final String ALERTS = "alerts";
    public static final String ALERT_COUNTS = "alert-counts";
    /**
     * The store of the counts. Its changelog topic is named after it, so keep the name when you
     * change the code, or the counts start again from zero.
     */
    public static final String ALERT_COUNT_STORE = "alert-counts";
    /** Degrees Fahrenheit; a reading must be above it to raise an alert. */
    public static final double THRESHOLD = 90.0;

    private AlertService() {
    }

    /**
     * Runs the service until SIGTERM or Ctrl-C, then commits what is in flight and stops (keeping
     * its group membership, so a restart moves no task). {@code --config FILE} (or
     * {@code WEIR_CONFIG_FILE}) adds a deployment's properties file, e.g. mounted from a ConfigMap.
     */
    public static void main(String[] args) throws InterruptedException {
        WeirApp.create(topology(), config().args(args).build()).runUntilShutdown();
    }

    /**
     * The processing: which topics are read and written, and what happens in between. Keep it a
     * {@code public static} method without arguments that builds the topology production runs: the
     * {@code weir} tool loads it by class name to check a new version against the running one
     * ({@code weir topology diff --topology com.example.service.AlertService --classpath
     * target/my-weir-service.jar}) and to restore a savepoint into it ({@code weir savepoint restore}).
     */
    public static Topology topology() {
        TopologyBuilder builder = new TopologyBuilder();
        RecordStream<String, Alert> alerts = builder
                .stream(Serdes.strings(), Serdes.json(Reading.class), READINGS)
                // A tombstone (null value) is not a reading: skip it rather than fail on it.
                .filter((sensor, reading) -> reading != null && reading.temperature() > THRESHOLD)
                .mapValues(Alert::of);
        alerts.to(ALERTS, Serdes.strings(), Serdes.json(Alert.class));
        alerts.groupByKey()                   // already keyed by sensor: no repartition topic
                .count(ALERT_COUNT_STORE)
                .toStream()
                .to(ALERT_COUNTS, Serdes.strings(), Serdes.longs());
        return builder.build();
    }

    /**
     * The settings the service ships with. {@code build()} lets environment variables override
     * them ({@code WEIR_BOOTSTRAP_SERVERS=broker:9092}, {@code WEIR_NUM_STREAM_THREADS=4}: the
     * setting's name in upper case, dots as underscores), so one build runs in every environment.
     */
    public static WeirConfig.Builder config() {
        return WeirConfig.builder()
                .applicationId(APPLICATION_ID)
                .bootstrapServers("localhost:9092");
    }
}
