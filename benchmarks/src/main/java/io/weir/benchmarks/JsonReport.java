package io.weir.benchmarks;

import java.io.PrintStream;
import java.util.OptionalDouble;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Writes results as JSON lines to the given stream (stdout), one object per line, flushed at once
 * so a reader can follow a long benchmark. Fields keep a fixed order. Throughput is rounded to
 * whole records per second, seconds to milliseconds, ratios to three decimals. For the restore
 * workload, {@code records} are restored records and {@code rps}, {@code weir_rps} and
 * {@code kafka_streams_rps} restored records per second. Workloads without a bare loop (all but
 * {@code stateless-map}) have no {@code bare_rps} and {@code weir_vs_bare} fields in their summary.
 *
 * <p>The restart and memory workloads have lines of their own: a restart run has {@code keys}
 * instead of {@code records}, {@code seconds} (start to first new output) and the job's details
 * instead of {@code rps}, its summary median seconds and {@code kafka_streams_vs_weir} (Kafka
 * Streams' seconds over Weir's); a memory run has {@code workload}, {@code system}, {@code keys},
 * the job's memory figures and {@code seconds}, and no summary.
 */
final class JsonReport {

    private final ObjectMapper mapper = new ObjectMapper();
    private final PrintStream out;

    JsonReport(PrintStream out) {
        this.out = out;
    }

    /** One run: {@code seconds} and {@code rps} are null and {@code error} is set if it failed. */
    void run(RunResult r) {
        switch (r.scenario().kind()) {
            case RESTART -> restartRun(r);
            case MEMORY -> memoryRun(r);
            default -> throughputRun(r);
        }
    }

    private void throughputRun(RunResult r) {
        ObjectNode line = mapper.createObjectNode()
                .put("workload", r.scenario().label())
                .put("guarantee", r.guarantee().label())
                .put("system", r.system())
                .put("run", r.run())
                .put("records", r.records());
        if (r.ok()) {
            line.put("seconds", round(r.seconds(), 3)).put("rps", Math.round(r.rps()));
        } else {
            line.putNull("seconds").putNull("rps").put("error", r.error().get());
        }
        write(line);
    }

    private void restartRun(RunResult r) {
        ObjectNode line = mapper.createObjectNode()
                .put("workload", r.scenario().label())
                .put("guarantee", r.guarantee().label())
                .put("system", r.system())
                .put("run", r.run())
                .put("keys", r.records());
        if (r.ok()) {
            line.put("seconds", round(r.seconds(), 3));
        } else {
            line.putNull("seconds");
        }
        putDetails(line, r);
        r.error().ifPresent(e -> line.put("error", e));
        write(line);
    }

    private void memoryRun(RunResult r) {
        ObjectNode line = mapper.createObjectNode()
                .put("workload", r.scenario().label())
                .put("system", r.system())
                .put("keys", r.records());
        putDetails(line, r);
        if (r.ok()) {
            line.put("seconds", round(r.seconds(), 3));
        } else {
            line.putNull("seconds");
        }
        r.error().ifPresent(e -> line.put("error", e));
        write(line);
    }

    private static void putDetails(ObjectNode line, RunResult r) {
        r.details().forEach((field, value) -> {
            if (value == null) {
                line.putNull(field);
            } else if (value instanceof Boolean b) {
                line.put(field, b);
            } else if (value instanceof Double d) {
                line.put(field, d);
            } else if (value instanceof Number n) {
                line.put(field, n.longValue());
            } else {
                line.put(field, value.toString());
            }
        });
    }

    void summary(Summary s) {
        if (s.scenario().kind() == Scenario.Kind.RESTART) {
            ObjectNode line = mapper.createObjectNode()
                    .put("summary", true)
                    .put("workload", s.scenario().label())
                    .put("guarantee", s.guarantee().label())
                    .put("keys", s.records());
            putRounded(line, "weir_seconds", s.weirSeconds(), 3);
            putRounded(line, "kafka_streams_seconds", s.kafkaStreamsSeconds(), 3);
            putRounded(line, "kafka_streams_vs_weir", s.kafkaStreamsVsWeirSeconds(), 3);
            write(line);
            return;
        }
        ObjectNode line = mapper.createObjectNode()
                .put("summary", true)
                .put("workload", s.scenario().label())
                .put("guarantee", s.guarantee().label())
                .put("records", s.records());
        putRounded(line, "weir_rps", s.weirRps(), 0);
        putRounded(line, "kafka_streams_rps", s.kafkaStreamsRps(), 0);
        if (s.scenario().hasBare()) {
            putRounded(line, "bare_rps", s.bareRps(), 0);
        }
        putRounded(line, "weir_vs_kafka_streams", s.weirVsKafkaStreams(), 3);
        if (s.scenario().hasBare()) {
            putRounded(line, "weir_vs_bare", s.weirVsBare(), 3);
        }
        write(line);
    }

    private static void putRounded(ObjectNode line, String field, OptionalDouble value, int decimals) {
        if (value.isEmpty()) {
            line.putNull(field);
        } else if (decimals == 0) {
            line.put(field, Math.round(value.getAsDouble()));
        } else {
            line.put(field, round(value.getAsDouble(), decimals));
        }
    }

    private static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

    private void write(ObjectNode line) {
        try {
            out.println(mapper.writeValueAsString(line));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write JSON", e);
        }
    }
}
