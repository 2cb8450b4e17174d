package io.weir.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.benchmarks.Guarantee;
import io.weir.benchmarks.RunResult;
import io.weir.benchmarks.Scenario;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CpuPerRecordTest {

    private static final long RECORDS = 2_000_000;

    private static RunResult run(String system, int run, double seconds, double cpuSeconds) {
        return new RunResult(
                Scenario.COUNT_1M,
                system,
                Guarantee.EXACTLY_ONCE,
                run,
                RECORDS,
                seconds,
                Optional.empty(),
                Map.of("cpu_seconds", cpuSeconds));
    }

    private static JsonNode summaryOf(List<RunResult> results) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new JsonReport(new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .summary(Summary.of(Scenario.COUNT_1M, Guarantee.EXACTLY_ONCE, RECORDS, results));
        return new ObjectMapper().readTree(bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theSummaryGivesEachSystemsCpuPerMillionRecordsAndACpuRatioBesideTheRateRatio() throws Exception {
        JsonNode line = summaryOf(List.of(
                run("weir", 1, 4.0, 3.0),
                run("weir", 2, 5.0, 5.0),
                run("weir", 3, 4.5, 4.0),
                run("kafka_streams", 1, 10.0, 10.0),
                run("kafka_streams", 2, 8.0, 8.0),
                run("kafka_streams", 3, 9.0, 12.0)));

        // Medians: Weir 4 CPU-s and 4.5 s, Kafka Streams 10 CPU-s and 9 s, over 2 million records.
        assertThat(line.get("weir_cpu_seconds").asDouble()).isEqualTo(4.0);
        assertThat(line.get("weir_cpu_s_per_m_records").asDouble()).isEqualTo(2.0);
        assertThat(line.get("kafka_streams_cpu_s_per_m_records").asDouble()).isEqualTo(5.0);
        assertThat(line.get("weir_vs_kafka_streams").asDouble()).isEqualTo(2.0);
        assertThat(line.get("weir_cpu_vs_kafka_streams").asDouble()).isEqualTo(0.4);
        List<String> fields = new ArrayList<>();
        line.fieldNames().forEachRemaining(fields::add);
        assertThat(fields.indexOf("weir_cpu_vs_kafka_streams")).isEqualTo(fields.indexOf("weir_vs_kafka_streams") + 1);
    }

    @Test
    void aSystemWhoseRunsReportNoCpuHasNoCpuFiguresAndNoRatio() throws Exception {
        JsonNode line = summaryOf(List.of(
                run("weir", 1, 4.0, 3.0),
                new RunResult(
                        Scenario.COUNT_1M,
                        "kafka_streams",
                        Guarantee.EXACTLY_ONCE,
                        1,
                        RECORDS,
                        8.0,
                        Optional.empty(),
                        Map.of())));

        assertThat(line.get("weir_cpu_s_per_m_records").asDouble()).isEqualTo(1.5);
        assertThat(line.get("kafka_streams_cpu_s_per_m_records").isNull()).isTrue();
        assertThat(line.get("weir_cpu_vs_kafka_streams").isNull()).isTrue();
    }
}
