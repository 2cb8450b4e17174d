package io.weir.docs.start;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.dsl.RecordStream;
import io.weir.serde.Serdes;

// The service of the starter (starter/src/main/java/com/example/service/AlertService.java) in
// one file, its records nested, as docs/getting-started.md shows it; the README shows topology().

// tag::first-topology[]
public final class AlertService {

    public record Reading(String sensor, double temperature, long timestamp) {}

    public record Alert(String sensor, double temperature, long timestamp) {}

    // tag::topology[]
    public static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, Alert> alerts = b.stream(Serdes.strings(), Serdes.json(Reading.class), "readings")
                .filter((sensor, r) -> r != null && r.temperature() > 90) // null: a tombstone
                .mapValues(r -> new Alert(r.sensor(), r.temperature(), r.timestamp()));
        alerts.to("alerts", Serdes.strings(), Serdes.json(Alert.class));
        alerts.groupByKey()
                .count("alert-counts") // a table in a store, kept in a changelog topic
                .toStream()
                .to("alert-counts", Serdes.strings(), Serdes.longs());
        return b.build();
    }
    // end::topology[]

    public static WeirConfig.Builder config() {
        return WeirConfig.builder()
                .applicationId("my-weir-service")
                .bootstrapServers("localhost:9092"); // WEIR_BOOTSTRAP_SERVERS overrides it
    }

    public static void main(String[] args) throws InterruptedException {
        // --config FILE (or WEIR_CONFIG_FILE) adds a deployment's settings; SIGTERM stops gracefully
        WeirApp.create(topology(), config().args(args).build()).runUntilShutdown();
    }
}
// end::first-topology[]
